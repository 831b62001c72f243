package dev.perflab.support.migrate;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;
import org.flywaydb.core.api.migration.JavaMigration;

import dev.perflab.support.security.DevelopmentSecrets;
import dev.perflab.support.security.JwtProperties;
import dev.perflab.support.security.KeyedHash;

/**
 * The app's migrate-only mode: the same {@code application.yml} (datasource, Flyway locations and the wallet's
 * {@code wallet_member_index} placeholder from {@code perflab.wallet.index}), but only the data source and
 * Flyway (with the Java migrations, which may need the hash secret), no web server, no warm-up; it migrates the database and exits. {@code ./perflab migrate} and the
 * seed commands run it (through Spring Boot's {@code PropertiesLauncher} with {@code loader.main}), so a new
 * database never needs the app to have been started once first.
 *
 * <p>Not a {@code @Configuration}: the main application's component scan must not pick it up.
 */
@ImportAutoConfiguration({DataSourceAutoConfiguration.class, FlywayAutoConfiguration.class})
@Import({KeyedHash.class, DevelopmentSecrets.class})
@EnableConfigurationProperties({KeyedHash.Properties.class, JwtProperties.class})
@ComponentScan(basePackages = {"dev.perflab", "db.migrations"}, useDefaultFilters = false,
        includeFilters = @ComponentScan.Filter(type = FilterType.ASSIGNABLE_TYPE, classes = JavaMigration.class))
public final class MigrateOnly {

    private MigrateOnly() {
    }

    public static void main(String[] args) {
        new SpringApplicationBuilder(MigrateOnly.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .run(args)
                .close();
    }
}
