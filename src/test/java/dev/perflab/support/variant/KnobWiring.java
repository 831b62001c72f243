package dev.perflab.support.variant;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.SimpleBeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.env.Environment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.MethodMetadata;
import org.springframework.core.type.StandardMethodMetadata;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Checks that knobs and the beans they select agree, from the compiled classes. A knob is an enum component of a
 * {@code @ConfigurationProperties("perflab.<feature>")} record ({@link Knobs}); a knob bean is a class or
 * {@code @Bean} method whose {@code @ConditionalOnProperty} names the knob. The rules:
 * <ul>
 * <li>every {@code havingValue} is one of the knob's values, compared as {@link Knobs#read} and Spring compare
 * them (any case), and every {@code perflab.*} property in a condition is a knob;</li>
 * <li>{@code matchIfMissing = true} only on the baseline (the record's {@code @DefaultValue}), so that an unset
 * knob selects exactly the baseline's beans;</li>
 * <li>every value selects exactly one bean of each type the knob switches: a type that knob beans provide for two
 * or more values, or that a bean outside the knob injects as a single dependency. A type only one value
 * provides and nothing injects alone is an add-on of that value (the warm-up's {@code WarmupRequests}).</li>
 * </ul>
 * Configurations under a {@code @ConditionalOnBooleanProperty} switch are left out: the interleaved mode's
 * ({@code perflab.lab.interleave.enabled}) {@code @Primary} routers sit over each knob's bean, not beside it.
 * Whether a bean is selected is decided by Spring Boot's own {@code @ConditionalOnProperty} condition against an
 * environment holding only the knob's value, so a value selects a bean here exactly when it does in the app.
 */
final class KnobWiring {

    private static final Condition PROPERTY_CONDITION = BeanUtils.instantiateClass(
            ConditionalOnProperty.class.getAnnotation(Conditional.class).value()[0]);

    private final Map<String, KnobSpec> knobs;
    private final List<Candidate> candidates;
    private final List<Consumer> consumers;

    private KnobWiring(Map<String, KnobSpec> knobs, List<Candidate> candidates, List<Consumer> consumers) {
        this.knobs = knobs;
        this.candidates = candidates;
        this.consumers = consumers;
    }

    /**
     * @param knobRecords the {@code @ConfigurationProperties} records whose enum components are knobs
     * @param beanClasses the classes Spring registers (components and configurations), with their {@code @Bean} methods
     */
    static KnobWiring of(Collection<Class<?>> knobRecords, Collection<Class<?>> beanClasses) {
        Map<String, KnobSpec> knobs = new TreeMap<>();
        for (Class<?> record : knobRecords) {
            for (Knobs.Knob knob : Knobs.read(record, new MockEnvironment())) {
                Class<?> enumType = Arrays.stream(record.getRecordComponents())
                        .filter(c -> Knobs.kebab(c.getName()).equals(knob.name())).findFirst().orElseThrow().getType();
                knobs.put(knob.property(), new KnobSpec(knob.property(), enumType, knob.allowed(), knob.value()));
            }
        }
        List<Candidate> candidates = new ArrayList<>();
        List<Consumer> consumers = new ArrayList<>();
        for (Class<?> type : beanClasses) {
            AnnotationMetadata metadata = AnnotationMetadata.introspect(type);
            if (metadata.isAnnotated(ConditionalOnBooleanProperty.class.getName())) {
                continue; // a switch, not a knob: the interleaved mode's @Primary routers over each knob's bean
            }
            Candidate component = new Candidate(shortName(type), type, List.of(metadata));
            candidates.add(component);
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                consumers.add(new Consumer(component, constructor.getParameterTypes()));
            }
            for (MethodMetadata beanMethod : metadata.getAnnotatedMethods(Bean.class.getName())) {
                Method method = ((StandardMethodMetadata) beanMethod).getIntrospectedMethod();
                Candidate bean = new Candidate(shortName(type) + "." + method.getName() + "()", method.getReturnType(),
                        List.of(metadata, beanMethod));
                candidates.add(bean);
                consumers.add(new Consumer(bean, method.getParameterTypes()));
            }
        }
        return new KnobWiring(knobs, candidates, consumers);
    }

    Map<String, KnobSpec> knobs() {
        return knobs;
    }

    /** The beans whose conditions name this property. */
    List<Candidate> beansOf(String property) {
        return candidates.stream().filter(c -> c.properties().contains(property)).toList();
    }

    /** The types a knob must select exactly one bean of, for every value: what the check checks. */
    List<String> switchedTypes(String property) {
        KnobSpec knob = knobs.get(property);
        return switchedTypes(knob, selectedByValue(knob)).keySet().stream().map(KnobWiring::shortName).toList();
    }

    /** The beans Spring would register with these properties set and every other knob unset. */
    List<String> selectedWith(Map<String, String> properties) {
        return names(selected(properties));
    }

    /** Every rule broken, one readable line each, naming the class, the property and the value; empty when all hold. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        problems.addAll(conditionProblems());
        for (KnobSpec knob : knobs.values()) {
            if (!beansOf(knob.property()).isEmpty()) {
                problems.addAll(selectionProblems(knob));
            }
        }
        return problems;
    }

    private List<String> conditionProblems() {
        List<String> problems = new ArrayList<>();
        for (Candidate candidate : candidates) {
            for (PropertyCondition condition : PropertyCondition.of(candidate.metadata().getLast())) {
                if (!condition.property().startsWith("perflab.")) {
                    continue;
                }
                KnobSpec knob = knobs.get(condition.property());
                if (knob == null) {
                    problems.add(candidate.name() + ": @ConditionalOnProperty names " + condition.property()
                            + ", which is no knob (knobs: " + String.join(", ", knobs.keySet()) + ")");
                } else if (!knob.allowed().contains(condition.havingValue().toLowerCase(Locale.ROOT))) {
                    problems.add(candidate.name() + ": @ConditionalOnProperty(name = \"" + knob.property()
                            + "\", havingValue = \"" + condition.havingValue() + "\") names no value of "
                            + shortName(knob.enumType()) + " (allowed: " + String.join(", ", knob.allowed()) + ")");
                } else if (condition.matchIfMissing()
                        && !condition.havingValue().toLowerCase(Locale.ROOT).equals(knob.baseline())) {
                    problems.add(candidate.name() + ": matchIfMissing = true on " + knob.property() + "="
                            + condition.havingValue() + ", but the baseline is " + knob.baseline()
                            + ": only the baseline's beans may match a missing knob");
                }
            }
        }
        return problems;
    }

    private List<String> selectionProblems(KnobSpec knob) {
        List<String> problems = new ArrayList<>();
        Map<String, List<Candidate>> selected = selectedByValue(knob);
        List<Candidate> unset = selected(Map.of());
        if (!names(unset).equals(names(selected.get(knob.baseline())))) {
            problems.add(knob.property() + " unset selects " + names(onlyKnobBeans(unset, knob)) + " but "
                    + knob.property() + "=" + knob.baseline() + " (the baseline) selects "
                    + names(onlyKnobBeans(selected.get(knob.baseline()), knob)));
        }
        for (Map.Entry<Class<?>, Boolean> switched : switchedTypes(knob, selected).entrySet()) {
            Class<?> type = switched.getKey();
            for (Map.Entry<String, List<Candidate>> byValue : selected.entrySet()) {
                List<Candidate> pool = switched.getValue() ? byValue.getValue() : onlyKnobBeans(byValue.getValue(), knob);
                List<String> beans = pool.stream().filter(c -> type.isAssignableFrom(c.type())).map(Candidate::name).toList();
                if (beans.size() != 1) {
                    String why = switched.getValue() ? "injected alone by " + String.join(", ", injectorsOf(type, knob))
                            : "switched by " + knob.property();
                    problems.add(knob.property() + "=" + byValue.getKey() + " selects " + beans.size() + " beans of "
                            + shortName(type) + " " + beans + ", needs exactly one (" + why + ")");
                }
            }
        }
        return problems;
    }

    private Map<String, List<Candidate>> selectedByValue(KnobSpec knob) {
        Map<String, List<Candidate>> selected = new LinkedHashMap<>();
        for (String value : knob.allowed()) {
            selected.put(value, selected(Map.of(knob.property(), value)));
        }
        return selected;
    }

    /**
     * The types this knob must select exactly one bean of, each mapped to whether a bean outside the knob injects
     * it alone (then every bean of the type counts, not only the knob's).
     */
    private Map<Class<?>, Boolean> switchedTypes(KnobSpec knob, Map<String, List<Candidate>> selected) {
        Map<Class<?>, Set<String>> valuesProviding = new LinkedHashMap<>();
        selected.forEach((value, beans) -> onlyKnobBeans(beans, knob).forEach(bean -> typesOf(bean.type())
                .forEach(type -> valuesProviding.computeIfAbsent(type, t -> new LinkedHashSet<>()).add(value))));
        beansOf(knob.property()).forEach(bean -> typesOf(bean.type())
                .forEach(type -> valuesProviding.computeIfAbsent(type, t -> new LinkedHashSet<>())));
        Map<Class<?>, Boolean> switched = new LinkedHashMap<>();
        valuesProviding.forEach((type, values) -> {
            boolean injected = !injectorsOf(type, knob).isEmpty();
            if (injected || values.size() > 1) {
                switched.put(type, injected);
            }
        });
        // a failure on CloseableHttpClient need not be repeated for Closeable: keep the most specific types
        switched.keySet().removeIf(type -> !switched.get(type) && switched.keySet().stream()
                .anyMatch(sub -> sub != type && type.isAssignableFrom(sub)));
        return switched;
    }

    private List<String> injectorsOf(Class<?> type, KnobSpec knob) {
        return consumers.stream()
                .filter(c -> !c.bean().properties().contains(knob.property()))
                .filter(c -> Arrays.asList(c.parameterTypes()).contains(type))
                .map(c -> c.bean().name()).distinct().toList();
    }

    private List<Candidate> selected(Map<String, String> properties) {
        MockEnvironment environment = new MockEnvironment();
        properties.forEach(environment::setProperty);
        ConditionContext context = new EnvironmentOnlyContext(environment);
        return candidates.stream().filter(c -> c.metadata().stream()
                .filter(KnobWiring::hasPropertyCondition)
                .allMatch(m -> PROPERTY_CONDITION.matches(context, m))).toList();
    }

    private List<Candidate> onlyKnobBeans(List<Candidate> beans, KnobSpec knob) {
        return beans.stream().filter(c -> c.properties().contains(knob.property())).toList();
    }

    private static List<String> names(List<Candidate> beans) {
        return beans.stream().map(Candidate::name).toList();
    }

    private static boolean hasPropertyCondition(AnnotatedTypeMetadata metadata) {
        return !PropertyCondition.of(metadata).isEmpty();
    }

    private static Set<Class<?>> typesOf(Class<?> type) {
        Set<Class<?>> types = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            types.add(c);
        }
        types.addAll(ClassUtils.getAllInterfacesForClassAsSet(type));
        return types;
    }

    static String shortName(Class<?> type) {
        return type.getName().replace("dev.perflab.", "").replace('$', '.');
    }

    /** One knob: its property, its enum, the enum's values in kebab case and the baseline. */
    record KnobSpec(String property, Class<?> enumType, List<String> allowed, String baseline) {
    }

    /** A class or {@code @Bean} method Spring may register, with the metadata its conditions sit on. */
    record Candidate(String name, Class<?> type, List<AnnotatedTypeMetadata> metadata) {

        List<PropertyCondition> propertyConditions() {
            return metadata.stream().flatMap(m -> PropertyCondition.of(m).stream()).toList();
        }

        Set<String> properties() {
            return propertyConditions().stream().map(PropertyCondition::property).collect(Collectors.toSet());
        }
    }

    /** A bean's constructor or {@code @Bean} method and the types it asks for. */
    record Consumer(Candidate bean, Class<?>[] parameterTypes) {
    }

    /** One property of one {@code @ConditionalOnProperty}. */
    record PropertyCondition(String property, String havingValue, boolean matchIfMissing) {

        static List<PropertyCondition> of(AnnotatedTypeMetadata metadata) {
            Stream<MergedAnnotation<ConditionalOnProperty>> direct = metadata.getAnnotations().stream(ConditionalOnProperty.class);
            Stream<MergedAnnotation<ConditionalOnProperty>> repeated = metadata.getAnnotations()
                    .stream(ConditionalOnProperties.class)
                    .flatMap(container -> Arrays.stream(container.getAnnotationArray("value", ConditionalOnProperty.class)));
            return Stream.concat(direct, repeated).flatMap(PropertyCondition::each).distinct().toList();
        }

        private static Stream<PropertyCondition> each(MergedAnnotation<ConditionalOnProperty> annotation) {
            String prefix = annotation.getString("prefix").strip();
            String[] names = annotation.getStringArray("name");
            if (names.length == 0) {
                names = annotation.getStringArray("value");
            }
            String fullPrefix = prefix.isEmpty() || prefix.endsWith(".") ? prefix : prefix + ".";
            return Arrays.stream(names).map(name -> new PropertyCondition(fullPrefix + name,
                    annotation.getString("havingValue"), annotation.getBoolean("matchIfMissing")));
        }
    }

    /** Conditions on properties need only the environment. */
    private record EnvironmentOnlyContext(Environment environment) implements ConditionContext {

        @Override
        public BeanDefinitionRegistry getRegistry() {
            return new SimpleBeanDefinitionRegistry();
        }

        @Override
        public ConfigurableListableBeanFactory getBeanFactory() {
            return null;
        }

        @Override
        public Environment getEnvironment() {
            return environment;
        }

        @Override
        public ResourceLoader getResourceLoader() {
            return new DefaultResourceLoader();
        }

        @Override
        public ClassLoader getClassLoader() {
            return KnobWiring.class.getClassLoader();
        }
    }
}
