package dev.perflab.archfixture;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a fixture's knob record in place of Spring's {@code @ConfigurationProperties}, which would have the app's
 * {@code @ConfigurationPropertiesScan} bind it whenever test classes are on the classpath.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface FixtureKnobs {

    String value();
}
