package dev.perflab.support.sql;

import java.sql.Connection;

import org.apache.ibatis.executor.statement.StatementHandler;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Plugin;
import org.apache.ibatis.plugin.Signature;

/**
 * A MyBatis plugin that sees every statement MyBatis prepares on a connection, that is every statement
 * that reaches the database (a result served from MyBatis' local cache prepares nothing), and reports it
 * to {@link SqlStatements}. MyBatis' Spring Boot starter installs every {@code Interceptor} bean.
 * <p>
 * MyBatis offers every executor, parameter handler, result set handler and statement handler it creates (four
 * per statement) to every plugin, and the default {@link Interceptor#plugin} answers with {@link Plugin#wrap},
 * which reads this class's annotations and walks the target's interfaces by reflection each time: in the
 * profile of a transfer {@code Plugin.getAllInterfaces} alone was among the hottest methods. Only a statement
 * handler is wrapped here; the other three are returned as they are, without reflection.
 */
@Intercepts(@Signature(type = StatementHandler.class, method = "prepare", args = {Connection.class, Integer.class}))
public class StatementCountingInterceptor implements Interceptor {

    @Override
    public Object plugin(Object target) {
        return target instanceof StatementHandler ? Plugin.wrap(target, this) : target;
    }

    @Override
    public Object intercept(Invocation invocation) throws Throwable {
        SqlStatements.sent();
        return invocation.proceed();
    }
}
