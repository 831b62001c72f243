package dev.perflab.support.sql;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Installs the statement counter into MyBatis for every feature. */
@Configuration(proxyBeanMethods = false)
class SqlStatementConfiguration {

    @Bean
    StatementCountingInterceptor statementCountingInterceptor() {
        return new StatementCountingInterceptor();
    }
}
