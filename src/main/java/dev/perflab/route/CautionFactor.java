package dev.perflab.route;

/** Something a wheelchair user should know about a route. */
public enum CautionFactor {
    CURB, CRACK, SLOPE, RUBBLE, ETC
}
