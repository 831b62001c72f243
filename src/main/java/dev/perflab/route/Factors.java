package dev.perflab.route;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/** The factor lists' column form ({@code 'SLOPE,CURB'}), parsed once per distinct value and shared. */
final class Factors {

    private static final Map<String, List<CautionFactor>> CAUTION = new ConcurrentHashMap<>();
    private static final Map<String, List<DangerFactor>> DANGER = new ConcurrentHashMap<>();

    private Factors() {
    }

    static List<CautionFactor> caution(String column) {
        return CAUTION.computeIfAbsent(column == null ? "" : column, c -> parse(c, CautionFactor.class));
    }

    static List<DangerFactor> danger(String column) {
        return DANGER.computeIfAbsent(column == null ? "" : column, c -> parse(c, DangerFactor.class));
    }

    static String join(List<? extends Enum<?>> factors) {
        return factors.stream().map(Enum::name).distinct().collect(Collectors.joining(","));
    }

    private static <E extends Enum<E>> List<E> parse(String column, Class<E> type) {
        if (column.isBlank()) {
            return List.of();
        }
        return Arrays.stream(column.split(",")).map(String::trim).map(name -> Enum.valueOf(type, name)).toList();
    }
}
