package dev.perflab.wallet;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Each side of the index A/B needs its own database (V3_1 fixes the index when a database is migrated), so
 * a test context with {@code perflab.wallet.index=unique} uses {@code <test database>_after} and one with
 * {@code non-unique} uses {@code <test database>_before}, e.g. perflab_test_wallet_after. The data source's URL
 * is rewritten before its pool starts, so Flyway and the app both use that database.
 */
@TestConfiguration(proxyBeanMethods = false)
public class WalletSideDatabase {

    @Bean
    static BeanPostProcessor walletSideDataSource(Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource dataSource) {
                    String side = "unique".equals(environment.getProperty("perflab.wallet.index")) ? "after" : "before";
                    dataSource.setJdbcUrl(sideDatabase(dataSource, side));
                }
                return bean;
            }
        };
    }

    private static String sideDatabase(HikariDataSource dataSource, String side) {
        String url = dataSource.getJdbcUrl();
        int slash = url.lastIndexOf('/');
        int query = url.indexOf('?', slash);
        String database = (query < 0 ? url.substring(slash + 1) : url.substring(slash + 1, query)) + "_" + side;
        try (Connection connection = DriverManager.getConnection(url.substring(0, slash + 1), dataSource.getUsername(),
                dataSource.getPassword()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + database + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create " + database, e);
        }
        return url.substring(0, slash + 1) + database + (query < 0 ? "" : url.substring(query));
    }
}
