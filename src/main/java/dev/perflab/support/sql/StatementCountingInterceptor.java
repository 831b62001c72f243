package dev.perflab.support.sql;

import java.sql.Connection;

import org.apache.ibatis.executor.statement.StatementHandler;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Signature;

/**
 * A MyBatis plugin that sees every statement MyBatis prepares on a connection, that is every statement
 * that reaches the database (a result served from MyBatis' local cache prepares nothing), and reports it
 * to {@link SqlStatements}. MyBatis' Spring Boot starter installs every {@code Interceptor} bean.
 */
@Intercepts(@Signature(type = StatementHandler.class, method = "prepare", args = {Connection.class, Integer.class}))
public class StatementCountingInterceptor implements Interceptor {

    @Override
    public Object intercept(Invocation invocation) throws Throwable {
        SqlStatements.sent();
        return invocation.proceed();
    }
}
