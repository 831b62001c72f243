package dev.perflab;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * DESIGN.md's dependency rules: features never import each other, nothing imports {@code lab}, and
 * {@code support} imports no feature. {@code lab} may use a feature's public interface.
 */
class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.perflab");

    @Test
    void featuresDoNotDependOnEachOther() {
        SlicesRuleDefinition.slices().matching("dev.perflab.(*)..")
                .should().notDependOnEachOther()
                .ignoreDependency(com.tngtech.archunit.base.DescribedPredicate.alwaysTrue(),
                        com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage("dev.perflab.support..", "dev.perflab"))
                .ignoreDependency(com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage("dev.perflab.lab.."),
                        com.tngtech.archunit.base.DescribedPredicate.alwaysTrue())
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void nothingDependsOnTheLab() {
        noClasses().that().resideOutsideOfPackage("dev.perflab.lab..")
                .should().dependOnClassesThat().resideInAPackage("dev.perflab.lab..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void supportDependsOnNoFeature() {
        noClasses().that().resideInAPackage("dev.perflab.support..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.perflab.login..", "dev.perflab.wallet..",
                        "dev.perflab.route..", "dev.perflab.lab..")
                .check(classes);
    }
}
