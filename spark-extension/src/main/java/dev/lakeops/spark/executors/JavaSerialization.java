package dev.lakeops.spark.executors;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Group tasks and their results cross between driver and executors as Java-serialized bytes, so
 * they travel the same whatever {@code spark.serializer} the session uses (Kryo included): Spark
 * only ever sees a {@code byte[]}. Classes resolve through the thread's context class loader, where
 * Spark puts the application's jars.
 */
final class JavaSerialization {
  private JavaSerialization() {}

  static byte[] toBytes(Serializable value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize a " + value.getClass().getSimpleName(), e);
    }
    return bytes.toByteArray();
  }

  static <T> T fromBytes(byte[] bytes, Class<T> type) {
    try (ObjectInputStream in =
        new ContextClassLoaderInputStream(new ByteArrayInputStream(bytes))) {
      return type.cast(in.readObject());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read a " + type.getSimpleName(), e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "Cannot read a "
              + type.getSimpleName()
              + ": class "
              + e.getMessage()
              + " is missing; put the LakeOps runtime jar on spark.jars",
          e);
    }
  }

  private static final class ContextClassLoaderInputStream extends ObjectInputStream {
    ContextClassLoaderInputStream(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass description)
        throws IOException, ClassNotFoundException {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      if (loader != null) {
        try {
          return Class.forName(description.getName(), false, loader);
        } catch (ClassNotFoundException e) {
          // fall back to the default resolution below
        }
      }
      return super.resolveClass(description);
    }
  }
}
