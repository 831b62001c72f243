package dev.perflab.route;

import java.util.List;

/** One route (an edge between two nodes) as cached, with its nodes inlined, as the seed's {@code LightRoute}. */
public record LightRoute(long id, double distance, LightNode node1, LightNode node2,
        List<CautionFactor> cautionFactors, List<DangerFactor> dangerFactors) {

    public LightRoute {
        cautionFactors = cautionFactors == null ? List.of() : cautionFactors;
        dangerFactors = dangerFactors == null ? List.of() : dangerFactors;
    }
}
