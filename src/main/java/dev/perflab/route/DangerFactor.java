package dev.perflab.route;

/** Something that makes a route impassable for a wheelchair user. */
public enum DangerFactor {
    CURB, STAIRS, SLOPE, ETC
}
