package dev.perflab.support.parse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What C2 decided about inlining each header parser (seed 000's JITWatch finding, from the JDK's own flags).
 * It runs {@link HeaderParsingDriver} in a child JVM with {@code -XX:+PrintCompilation -XX:+PrintInlining},
 * keeps the inlining lines of the tier-4 (C2) compilations, and judges them: the naive Bearer parse must be
 * refused for its size ("hot method too big": over {@code FreqInlineSize}, 325 bytecode bytes), and every lean
 * method must be inlined ("inline (hot)"). The naive Idempotency-Key parse is shown, not judged: it is
 * 250 bytes and C2 may inline it; its cost is what it allocates.
 *
 * <p>Only the driver's four call sites are compiled ({@code -XX:CompileCommand=compileonly}), so C2 meets each
 * parser first at its call site and judges it by its bytecode size and profile. Without that, a parser that C2
 * happened to compile on its own first is refused as "already compiled into a big method" (its machine code
 * is over {@code InlineSmallCode}, 2500 bytes), which depends on compile order, not on the method.
 * {@code -Xbatch} makes each compilation finish before the driver goes on, so the run is deterministic.
 *
 * <p>{@code scripts/inlining-check.sh} runs {@link #main}; {@code HeaderParsingInliningTest} asserts the same.
 */
public final class InliningCheck {

    /** The flags the driver runs with. */
    public static final List<String> FLAGS = List.of("-Xbatch", "-XX:CompileCommand=quiet",
            "-XX:CompileCommand=compileonly," + HeaderParsingDriver.class.getName() + "::naive*",
            "-XX:CompileCommand=compileonly," + HeaderParsingDriver.class.getName() + "::lean*",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintCompilation", "-XX:+PrintInlining");

    /** The driver's iterations: C2 has compiled all four call sites after about 10,000. */
    static final int ITERATIONS = 20_000;

    static final String NAIVE_BEARER = "NaiveBearerTokenResolver::parse";
    static final String NAIVE_KEY = "NaiveIdempotencyKeyParser::parse";

    /** The lean methods on the path of a well-formed header; each must be inlined wherever C2 meets it. */
    static final List<String> LEAN = List.of("LeanBearerTokenResolver::parse", "LeanBearerTokenResolver::isBearer",
            "LeanBearerTokenResolver::isB64Token", "LeanBearerTokenResolver::isTokenChar",
            "LeanIdempotencyKeyParser::parse", "LeanIdempotencyKeyParser::hasDashes", "LeanIdempotencyKeyParser::hex",
            "LeanIdempotencyKeyParser::nibble", "HeaderValues::end", "HeaderValues::start", "HeaderValues::skipSpaces");

    private static final Set<String> LEAN_CLASSES = Set.of("LeanBearerTokenResolver", "LeanIdempotencyKeyParser",
            "HeaderValues");

    /** A compile task line of -XX:+PrintCompilation: time, id, flags, tier, method. */
    private static final Pattern TASK = Pattern.compile("^\\s*\\d+\\s+\\d+\\s+[%sbn! ]*?([0-4])\\s+\\S+::\\S+.*");

    /** An inlining line of -XX:+PrintInlining: {@code @ bci class::method (n bytes) decision}. */
    private static final Pattern INLINE = Pattern.compile("^\\s+@ \\d+\\s+([\\w.$]+)::(\\S+) \\((\\d+) bytes\\)\\s+(.+)$");

    private InliningCheck() {
    }

    /** What C2 said about one method: its bytecode size and each decision with how often it said it. */
    public record Decisions(int bytes, Map<String, Integer> said) {

        boolean inlined() {
            return !said.isEmpty() && said.keySet().stream().allMatch(d -> d.startsWith("inline"));
        }

        boolean refusedForSize() {
            return !said.isEmpty() && said.keySet().stream().allMatch(d -> d.endsWith("too big"));
        }
    }

    /** One row of the verdict table; {@code ok} is null for a row that is shown, not judged. */
    public record Row(String method, int bytes, String said, String expected, Boolean ok) {

        String verdict() {
            return ok == null ? "-" : ok ? "ok" : "FAIL";
        }
    }

    /** The decisions of one run, by {@code SimpleClass::method}, and its raw output. */
    public record Report(Map<String, Decisions> c2, List<String> output) {

        public Decisions decisions(String method) {
            return c2.getOrDefault(method, new Decisions(0, Map.of()));
        }

        public List<Row> rows() {
            List<Row> rows = new ArrayList<>();
            Decisions naive = decisions(NAIVE_BEARER);
            rows.add(new Row(NAIVE_BEARER, naive.bytes(), describe(naive), "not inlined (too big)", naive.refusedForSize()));
            Set<String> lean = new LinkedHashSet<>(LEAN);
            c2.keySet().stream().filter(m -> LEAN_CLASSES.contains(m.substring(0, m.indexOf(':')))).forEach(lean::add);
            for (String method : lean) {
                Decisions d = decisions(method);
                rows.add(new Row(method, d.bytes(), describe(d), "inline (hot)", d.inlined()));
            }
            Decisions key = decisions(NAIVE_KEY);
            rows.add(new Row(NAIVE_KEY, key.bytes(), describe(key), "(not judged)", null));
            return rows;
        }

        public boolean ok() {
            return rows().stream().allMatch(row -> row.ok() == null || row.ok());
        }

        private static String describe(Decisions d) {
            if (d.said().isEmpty()) {
                return "(no C2 decision seen)";
            }
            List<String> parts = new ArrayList<>();
            d.said().forEach((decision, times) -> parts.add(decision + (times > 1 ? " x" + times : "")));
            return String.join("; ", parts);
        }
    }

    /**
     * Runs the driver in a child JVM of this JVM's java and class path, and reads what C2 decided.
     *
     * @param extraFlags more JVM flags for the driver, after {@link #FLAGS} (e.g. {@code -XX:FreqInlineSize=400})
     */
    public static Report run(Duration timeout, List<String> extraFlags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(FLAGS);
        command.addAll(extraFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HeaderParsingDriver.class.getName(),
                Integer.toString(ITERATIONS)));
        Path log = Files.createTempFile("inlining-check", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("the driver did not finish within " + timeout);
            }
            List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("the driver exited with " + process.exitValue() + ":\n"
                        + String.join("\n", output.subList(Math.max(0, output.size() - 20), output.size())));
            }
            return new Report(parse(output), output);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The inlining decisions made in tier-4 (C2) compilations, by {@code SimpleClass::method}. */
    static Map<String, Decisions> parse(List<String> output) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> said = new LinkedHashMap<>();
        boolean c2 = false;
        for (String line : output) {
            Matcher task = TASK.matcher(line);
            if (task.matches()) {
                if (!line.contains("made not entrant") && !line.contains("made zombie")) {
                    c2 = task.group(1).equals("4");
                }
                continue;
            }
            Matcher inline = INLINE.matcher(line);
            if (c2 && inline.matches() && inline.group(1).startsWith("dev.perflab.support.")) {
                String className = inline.group(1);
                String method = className.substring(className.lastIndexOf('.') + 1) + "::" + inline.group(2);
                sizes.put(method, Integer.parseInt(inline.group(3)));
                String decision = inline.group(4).trim().replaceFirst("^failed to inline: ", "");
                said.computeIfAbsent(method, m -> new LinkedHashMap<>()).merge(decision, 1, Integer::sum);
            }
        }
        Map<String, Decisions> decisions = new LinkedHashMap<>();
        said.forEach((method, d) -> decisions.put(method, new Decisions(sizes.get(method), d)));
        return decisions;
    }

    /**
     * Prints the verdict table; exits 1 when a lean method is not inlined or the naive Bearer parse is.
     * Arguments: {@code [--log FILE] [JVM flags for the driver...]}; {@code --log} writes the driver's whole output.
     */
    public static void main(String[] args) throws Exception {
        List<String> flags = new ArrayList<>(List.of(args));
        Path log = null;
        if (flags.size() >= 2 && flags.get(0).equals("--log")) {
            log = Path.of(flags.get(1));
            flags.subList(0, 2).clear();
        }
        Report report = run(Duration.ofMinutes(2), flags);
        if (log != null) {
            Files.write(log, report.output(), StandardCharsets.UTF_8);
        }
        List<String> all = new ArrayList<>(FLAGS);
        all.addAll(flags);
        System.out.println("java " + System.getProperty("java.version") + " " + String.join(" ", all) + " "
                + HeaderParsingDriver.class.getSimpleName() + " " + ITERATIONS);
        System.out.printf("%-36s %5s  %-22s %-24s %s%n", "method", "bytes", "expected", "C2 said", "verdict");
        for (Row row : report.rows()) {
            System.out.printf("%-36s %5d  %-22s %-24s %s%n", row.method(), row.bytes(), row.expected(), row.said(),
                    row.verdict());
        }
        boolean ok = report.ok();
        System.out.println(ok ? "inlining check: ok" : "inlining check: FAILED");
        System.exit(ok ? 0 : 1);
    }
}
