package dev.perflab.support.variant;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Reads perflab's knobs: every enum component of a {@code @ConfigurationProperties("perflab.<feature>")}
 * record is one knob named {@code perflab.<feature>.<kebab-component>}, whose values are the enum's
 * constants in kebab case ({@code PER_REQUEST} is {@code per-request}).
 */
public final class Knobs {

    private Knobs() {
    }

    /** One knob's current value. */
    public record Knob(String feature, String name, String property, String value, List<String> allowed) {
    }

    public static String kebab(String name) {
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (c == '_') {
                out.append('-');
            } else if (Character.isUpperCase(c) && !out.isEmpty() && !name.equals(name.toUpperCase(Locale.ROOT))) {
                out.append('-').append(Character.toLowerCase(c));
            } else {
                out.append(Character.toLowerCase(c));
            }
        }
        return out.toString();
    }

    public static String valueOf(Enum<?> constant) {
        return kebab(constant.name());
    }

    public static List<String> allowedValues(Class<?> enumType) {
        return Arrays.stream(enumType.getEnumConstants()).map(c -> valueOf((Enum<?>) c)).toList();
    }

    public static boolean isKnobRecord(Class<?> type) {
        ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
        return type.isRecord() && annotation != null && prefixOf(annotation).startsWith("perflab.");
    }

    /**
     * Validates and reads the knobs of one properties record. A raw value must be spelled exactly as
     * one allowed value (any case, no spaces around it: the condition compares the raw value), so that
     * {@code @ConditionalOnProperty(havingValue=...)} and the bound enum can never disagree.
     */
    public static List<Knob> read(Class<?> recordType, Environment environment) {
        String prefix = prefixOf(recordType.getAnnotation(ConfigurationProperties.class));
        String feature = prefix.substring("perflab.".length());
        List<RecordComponent> enums = Arrays.stream(recordType.getRecordComponents()).filter(c -> c.getType().isEnum()).toList();
        for (RecordComponent component : enums) {
            String property = prefix + "." + kebab(component.getName());
            List<String> allowed = allowedValues(component.getType());
            String raw = environment.getProperty(property);
            if (raw != null && !allowed.contains(raw.toLowerCase(Locale.ROOT))) {
                throw new InvalidKnobException(property, raw, allowed);
            }
        }
        Object bound = Binder.get(environment).bindOrCreate(prefix, recordType);
        List<Knob> knobs = new ArrayList<>();
        for (RecordComponent component : enums) {
            String property = prefix + "." + kebab(component.getName());
            Enum<?> value = (Enum<?>) invoke(component, bound);
            if (value == null) {
                throw new IllegalStateException(property + " has no default: give it @DefaultValue(\"<baseline>\")");
            }
            knobs.add(new Knob(feature, kebab(component.getName()), property, valueOf(value),
                    allowedValues(component.getType())));
        }
        return knobs;
    }

    public static String describe(List<Knob> knobs) {
        return knobs.stream().map(k -> k.property() + "=" + k.value()).collect(Collectors.joining(", "));
    }

    private static String prefixOf(ConfigurationProperties annotation) {
        return annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
    }

    private static Object invoke(RecordComponent component, Object target) {
        try {
            return component.getAccessor().invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + component, e);
        }
    }
}
