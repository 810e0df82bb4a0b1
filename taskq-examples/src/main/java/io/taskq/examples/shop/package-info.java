/**
 * A small service of the kind an application writes, tested with TaskQ's test kit the way an
 * application's own tests would use it ({@code docs/testing.md}): placing an order enqueues its
 * confirmation e-mail, a typed Jackson payload that an actor sends.
 */
@NullMarked
package io.taskq.examples.shop;

import org.jspecify.annotations.NullMarked;
