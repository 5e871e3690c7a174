package dev.backplane.kernel.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a static method of a {@link KernelTest} class that prepares its kernel: it takes one
 * {@link KernelSetup} and runs after the issuer and the work directory exist, before the kernel starts.
 * Superclass methods run first.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface BeforeKernel {
}
