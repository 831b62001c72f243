package dev.perflab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.tngtech.archunit.base.DescribedPredicate;
import dev.perflab.support.variant.Knobs;

import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaEnumConstant;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md's dependency rules, read from the package layout so that a new feature needs no edit here: every
 * direct subpackage of {@code dev.perflab} is a feature except {@code support}. Features never use each other, except
 * that {@code lab} may use a feature's top-level package; nothing uses {@code lab}; {@code support} uses no feature;
 * a package's {@code before} and {@code after} variants are used only inside that package (Spring Modulith's
 * internal packages); and a knob with more than two values has a package of its own with a class for each value.
 * The last two tests run the same rules on the fixture classes under {@code dev.perflab.archfixture}
 * (test classes, which the app's check never imports) to show what each rule lets through and what it catches.
 */
class ArchitectureTest {

    private static final Layout APP = new Layout("dev.perflab", ConfigurationProperties.class.getName());
    /** The fixtures' knob records: Spring's {@code @ConfigurationProperties} would have the app's scan bind them. */
    private static final String FIXTURE_KNOBS = "dev.perflab.archfixture.FixtureKnobs";
    private static final JavaClasses APP_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(APP.root());

    @Test
    void theFeaturesAreTheDirectSubpackagesButSupport() throws IOException {
        try (Stream<Path> packages = Files.list(Path.of("src/main/java/dev/perflab"))) {
            assertThat(APP.features(APP_CLASSES)).isNotEmpty().containsExactlyElementsOf(packages
                    .filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals(Layout.SUPPORT)).sorted().toList());
        }
    }

    static Stream<Named<ArchRule>> appRules() {
        return APP.rules().stream().map(rule -> Named.of(rule.getDescription(), rule));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("appRules")
    void theAppKeepsTheRule(ArchRule rule) {
        rule.check(APP_CLASSES);
    }

    // --- the rules on fixtures: archfixture.good breaks none, archfixture.bad breaks each exactly once ---

    @Test
    void aFixtureThatKeepsTheRulesPassesEveryRule() {
        Layout good = new Layout("dev.perflab.archfixture.good", FIXTURE_KNOBS);
        JavaClasses classes = new ClassFileImporter().importPackages(good.root());
        assertThat(good.features(classes)).containsExactly("alpha", "lab");
        for (ArchRule rule : good.rules()) {
            assertThat(violations(rule, classes)).as(rule.getDescription()).isEmpty();
        }
    }

    @Test
    void eachRuleNamesTheDependencyOfTheFixtureThatBreaksIt() {
        Layout bad = new Layout("dev.perflab.archfixture.bad", FIXTURE_KNOBS);
        JavaClasses classes = new ClassFileImporter().importPackages(bad.root());
        assertThat(bad.features(classes)).containsExactly("alpha", "beta", "lab");
        String root = bad.root() + ".";
        assertThat(violations(bad.featuresDoNotDependOnEachOther(), classes))
                .containsExactly(root + "beta.BetaService uses " + root + "alpha.AlphaApi");
        assertThat(violations(bad.nothingDependsOnTheLab(), classes))
                .containsExactly(root + "BadApplication uses " + root + "lab.LabTool");
        assertThat(violations(bad.supportDependsOnNoFeature(), classes))
                .containsExactly(root + "support.Helper uses " + root + "alpha.AlphaApi");
        assertThat(violations(bad.variantsAreUsedOnlyInsideTheirPackage(), classes))
                .containsExactly(root + "lab.LabTool uses " + root + "alpha.after.FastAlpha");
        assertThat(violations(bad.eachValueOfAKnobWithAPackageHasItsPlace(), classes)).containsExactly(
                root + "alpha.ThirdMode is a variant of perflab.alpha.mode outside " + root + "alpha.mode",
                "perflab.alpha.mode=third has no class in " + root + "alpha.mode");
    }

    @Test
    void theKnobsWithAPackageAreTheOnesWithMoreThanTwoValuesAndTheWriter() {
        assertThat(APP.placedKnobs(APP_CLASSES)).extracting(Knob::property).containsExactly(
                "perflab.login.client", "perflab.route.codec", "perflab.route.writer");
    }

    private static List<String> violations(ArchRule rule, JavaClasses classes) {
        return rule.evaluate(classes).getFailureReport().getDetails();
    }

    /**
     * The packages the rules read. Under {@code root}, each direct subpackage is a feature except {@code support};
     * {@code lab} is the one feature that may use others. {@code knobsAnnotation} marks the knob records
     * ({@code @ConfigurationProperties("perflab.<feature>")}): each enum component is a knob.
     */
    record Layout(String root, String knobsAnnotation) {

        static final String SUPPORT = "support";
        static final String LAB = "lab";
        private static final List<String> VARIANTS = List.of("before", "after");

        List<ArchRule> rules() {
            return List.of(featuresDoNotDependOnEachOther(), nothingDependsOnTheLab(), supportDependsOnNoFeature(),
                    variantsAreUsedOnlyInsideTheirPackage(), eachValueOfAKnobWithAPackageHasItsPlace());
        }

        /** Every feature the classes reside in. */
        SortedSet<String> features(JavaClasses classes) {
            return classes.stream().map(this::featureOf).filter(Objects::nonNull)
                    .collect(Collectors.toCollection(TreeSet::new));
        }

        ArchRule featuresDoNotDependOnEachOther() {
            return rule("features (but lab) do not depend on each other",
                    c -> featureOf(c) != null && !LAB.equals(featureOf(c)),
                    (origin, target) -> featureOf(target) != null && !featureOf(target).equals(featureOf(origin)));
        }

        ArchRule nothingDependsOnTheLab() {
            return rule("nothing depends on the lab", c -> !LAB.equals(featureOf(c)),
                    (origin, target) -> LAB.equals(featureOf(target)));
        }

        ArchRule supportDependsOnNoFeature() {
            return rule("support depends on no feature", c -> SUPPORT.equals(topLevel(c)),
                    (origin, target) -> featureOf(target) != null);
        }

        /** A class in {@code x.before} or {@code x.after} (or below) may be used only from {@code x} and below. */
        ArchRule variantsAreUsedOnlyInsideTheirPackage() {
            return rule("a package's before and after are used only inside it", c -> true, (origin, target) -> {
                String owner = variantOwner(target);
                String from = origin.getPackageName();
                return owner != null && !from.equals(owner) && !from.startsWith(owner + ".");
            });
        }

        /**
         * A knob with more than two values has a package of its own beside its knob record, named for it
         * ({@code perflab.login.client}: {@code login.client}), holding a class for each value
         * ({@code @ConditionalOnProperty(name = "perflab.login.client", havingValue = "pooled")}); a two-valued knob may
         * have one too ({@code route.writer}). A knob with a package keeps every variant there, none in
         * {@code before}/{@code after} or the feature's root. It reads class-level conditions, as the variants have.
         */
        ArchRule eachValueOfAKnobWithAPackageHasItsPlace() {
            String name = "each value of a knob with a package (more than two values) has its class there";
            ArchCondition<JavaClass> condition = new ArchCondition<>(name) {
                private List<Knob> knobs = List.of();
                private Collection<JavaClass> all = List.of();

                @Override
                public void init(Collection<JavaClass> allObjectsToTest) {
                    all = allObjectsToTest;
                    knobs = placedKnobs(allObjectsToTest);
                }

                @Override
                public void check(JavaClass type, ConditionEvents events) {
                    variantOf(type).flatMap(v -> knobs.stream().filter(k -> k.property().equals(v.getKey())).findFirst())
                            .filter(knob -> !type.getPackageName().equals(knob.place()))
                            .ifPresent(knob -> events.add(SimpleConditionEvent.violated(type, type.getName()
                                    + " is a variant of " + knob.property() + " outside " + knob.place())));
                    knobs.stream().filter(knob -> knob.record().equals(type.getName())).forEach(knob -> {
                        for (String value : knob.values()) {
                            boolean placed = all.stream().anyMatch(c -> c.getPackageName().equals(knob.place())
                                    && variantOf(c).equals(Optional.of(Map.entry(knob.property(), value))));
                            if (!placed) {
                                events.add(SimpleConditionEvent.violated(type,
                                        knob.property() + "=" + value + " has no class in " + knob.place()));
                            }
                        }
                    });
                }
            };
            return classes().should(condition).as(name).allowEmptyShould(true);
        }

        /** The knobs that have a package: more than two values, or a package named for them already. */
        List<Knob> placedKnobs(Collection<JavaClass> classes) {
            Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
            return classes.stream().filter(c -> topLevel(c) != null).flatMap(this::knobsOf)
                    .filter(knob -> knob.values().size() > 2 || packages.contains(knob.place()))
                    .sorted(Comparator.comparing(Knob::property)).toList();
        }

        /** The enum components of a knob record, each a knob {@code <prefix>.<kebab-name>}. */
        private Stream<Knob> knobsOf(JavaClass type) {
            Optional<String> prefix = type.getAnnotations().stream()
                    .filter(a -> a.getRawType().getName().equals(knobsAnnotation)).findFirst()
                    .map(a -> firstString(a, "value").or(() -> firstString(a, "prefix")).orElse(""));
            if (prefix.isEmpty() || !prefix.get().startsWith("perflab.")) {
                return Stream.empty();
            }
            return type.getFields().stream()
                    .filter(f -> !f.getModifiers().contains(JavaModifier.STATIC) && f.getRawType().isEnum())
                    .map(f -> knob(type, prefix.get(), f));
        }

        private static Knob knob(JavaClass type, String prefix, JavaField field) {
            String name = Knobs.kebab(field.getName());
            List<String> values = field.getRawType().getEnumConstants().stream().map(JavaEnumConstant::name)
                    .map(Knobs::kebab).sorted().toList();
            return new Knob(prefix + "." + name, type.getName(), type.getPackageName() + "." + name.replace("-", ""), values);
        }

        /** The knob property and value a class is conditional on, if it is. */
        private static Optional<Map.Entry<String, String>> variantOf(JavaClass type) {
            return type.getAnnotations().stream()
                    .filter(a -> a.getRawType().getName().equals(ConditionalOnProperty.class.getName())).findFirst()
                    .flatMap(a -> firstString(a, "name").or(() -> firstString(a, "value"))
                            .map(property -> Map.entry(property, (String) a.get("havingValue").orElse(""))));
        }

        private static Optional<String> firstString(JavaAnnotation<?> annotation, String property) {
            return annotation.get(property).flatMap(value -> value instanceof String[] many
                    ? Arrays.stream(many).filter(v -> !v.isEmpty()).findFirst()
                    : Optional.of((String) value).filter(v -> !v.isEmpty()));
        }

        /** The direct subpackage of root that holds the class: "" for root itself, null outside root. */
        private String topLevel(JavaClass type) {
            String name = type.getPackageName();
            if (name.equals(root)) {
                return "";
            }
            return name.startsWith(root + ".") ? name.substring(root.length() + 1).split("\\.")[0] : null;
        }

        private String featureOf(JavaClass type) {
            String top = topLevel(type);
            return top == null || top.isEmpty() || top.equals(SUPPORT) ? null : top;
        }

        /** {@code x} for a class in {@code x.before} or {@code x.after} (or below) under root, else null. */
        private String variantOwner(JavaClass type) {
            if (topLevel(type) == null) {
                return null;
            }
            String[] parts = type.getPackageName().split("\\.");
            for (int i = root.split("\\.").length; i < parts.length; i++) {
                if (VARIANTS.contains(parts[i])) {
                    return String.join(".", Arrays.copyOf(parts, i));
                }
            }
            return null;
        }

        /** The classes matching {@code origins} use no class for which {@code forbidden(origin, target)} holds. */
        private static ArchRule rule(String name, Predicate<JavaClass> origins,
                BiPredicate<JavaClass, JavaClass> forbidden) {
            ArchCondition<JavaClass> condition = new ArchCondition<>(name) {
                @Override
                public void check(JavaClass from, ConditionEvents events) {
                    from.getDirectDependenciesFromSelf().stream()
                            .map(dependency -> dependency.getTargetClass().getBaseComponentType())
                            .filter(target -> forbidden.test(from, target)).map(JavaClass::getName).distinct().sorted()
                            .forEach(target -> events.add(SimpleConditionEvent.violated(from,
                                    from.getName() + " uses " + target)));
                }
            };
            return classes().that(DescribedPredicate.describe("any", origins)).should(condition).as(name)
                    .allowEmptyShould(true);
        }
    }

    /** A knob that has a package: its property, its record's class, the package and its values (kebab case). */
    record Knob(String property, String record, String place, List<String> values) {
    }
}
