package dev.perflab.route;

import java.util.List;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** The body of an admin route change: its new distance (metres) and factor lists. */
public record RouteChange(
        @NotNull @Positive @DecimalMax("100000") Double distance,
        @Size(max = 4) List<@NotNull CautionFactor> cautionFactors,
        @Size(max = 4) List<@NotNull DangerFactor> dangerFactors) {

    public RouteChange {
        cautionFactors = cautionFactors == null ? List.of() : List.copyOf(cautionFactors);
        dangerFactors = dangerFactors == null ? List.of() : List.copyOf(dangerFactors);
    }
}
