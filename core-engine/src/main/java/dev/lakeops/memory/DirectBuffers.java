package dev.lakeops.memory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Frees a direct {@link ByteBuffer} when its owner is done with it, instead of when the garbage
 * collector gets to it, through {@code sun.misc.Unsafe.invokeCleaner} (module {@code
 * jdk.unsupported}, open to every class path: no JVM option needed). Where that method is missing
 * the buffer is left to the collector.
 */
public final class DirectBuffers {
  private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

  private DirectBuffers() {}

  /**
   * Frees {@code buffer}'s memory now; it must be a buffer from {@link ByteBuffer#allocateDirect},
   * not a view.
   */
  public static void free(ByteBuffer buffer) {
    if (INVOKE_CLEANER == null || !buffer.isDirect()) {
      return;
    }
    try {
      INVOKE_CLEANER.invokeExact(buffer);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot free a direct buffer", e);
    }
  }

  /** Whether {@link #free} frees at once (otherwise the collector does). */
  public static boolean freesAtOnce() {
    return INVOKE_CLEANER != null;
  }

  private static MethodHandle invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      return MethodHandles.lookup()
          .findVirtual(
              unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(theUnsafe.get(null));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
