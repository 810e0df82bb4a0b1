package io.taskq.architecture.internal;

/** An internal fault-seam type, for {@code TestSeamsTest}'s failing case. */
public final class ProbeFaults {}
