package dev.perflab.support.variant;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Checks every knob before any bean is created, so that a misspelt value stops startup with the
 * property name and its allowed values instead of silently running the baseline.
 */
class KnobValidator implements BeanFactoryPostProcessor, EnvironmentAware {

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        List<Knobs.Knob> knobs = new ArrayList<>();
        for (Class<?> type : knobRecords(beanFactory)) {
            knobs.addAll(Knobs.read(type, environment));
        }
        beanFactory.registerSingleton("perflabKnobs", new ActiveKnobs(knobs));
    }

    private static List<Class<?>> knobRecords(ConfigurableListableBeanFactory beanFactory) {
        List<Class<?>> types = new ArrayList<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            BeanDefinition definition = beanFactory.getBeanDefinition(name);
            String className = definition.getBeanClassName();
            if (className == null || !className.startsWith("dev.perflab.")) {
                continue;
            }
            Class<?> type = ClassUtils.resolveClassName(className, beanFactory.getBeanClassLoader());
            if (Knobs.isKnobRecord(type)) {
                types.add(type);
            }
        }
        types.sort((a, b) -> a.getName().compareTo(b.getName()));
        return types;
    }
}
