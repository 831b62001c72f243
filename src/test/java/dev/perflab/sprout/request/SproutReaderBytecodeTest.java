package dev.perflab.sprout.request;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.perflab.sprout.request.after.RefactoredRequestReader;
import dev.perflab.sprout.request.before.MonolithicRequestReader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write-up's JITWatch finding, from {@code javap -c}: the monolithic reader's {@code read} is over C2's
 * {@code FreqInlineSize} of 325 bytecode bytes ("callee is too large"), and every method of the refactored reader is
 * under it.
 */
class SproutReaderBytecodeTest {

    private static final int FREQ_INLINE_SIZE = 325;

    @Test
    void theMonolithicReadIsTooLargeToInline() {
        assertThat(sizes(MonolithicRequestReader.class).get("read")).isGreaterThan(FREQ_INLINE_SIZE * 2);
    }

    @Test
    void everyRefactoredMethodIsSmallEnoughToInline() {
        Map<String, Integer> sizes = sizes(RefactoredRequestReader.class);
        sizes.putAll(sizes(RefactoredRequestReader.class.getName() + "$Headers"));
        assertThat(sizes).containsKeys("read", "line", "request", "contentLength")
                .allSatisfy((method, bytes) -> assertThat(bytes).as(method).isLessThan(FREQ_INLINE_SIZE));
    }

    private static Map<String, Integer> sizes(Class<?> type) {
        return sizes(type.getName());
    }

    /** Each method's bytecode size: the offset of its last instruction plus one (a return: one byte). */
    private static Map<String, Integer> sizes(String className) {
        Path classes = Path.of("target/classes");
        StringWriter out = new StringWriter();
        int code = ToolProvider.findFirst("javap").orElseThrow()
                .run(new PrintWriter(out), new PrintWriter(out), "-c", "-p", "-cp", classes.toString(), className);
        assertThat(code).as(out.toString()).isZero();
        Map<String, Integer> sizes = new LinkedHashMap<>();
        Pattern method = Pattern.compile("^  \\S.*?(\\w+)\\(.*\\).*;$");
        Pattern instruction = Pattern.compile("^\\s+(\\d+): \\w+.*");
        String current = null;
        for (String line : out.toString().split("\n")) {
            if (line.startsWith("  ") && !line.startsWith("   ")) { // a member: a method, or a field or static {}
                Matcher m = method.matcher(line);
                current = m.matches() ? m.group(1) : null;
                continue;
            }
            Matcher i = instruction.matcher(line);
            if (current != null && i.matches()) {
                sizes.merge(current, Integer.parseInt(i.group(1)) + 1, Math::max);
            }
        }
        return sizes;
    }
}
