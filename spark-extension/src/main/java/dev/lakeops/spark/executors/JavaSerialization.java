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
import java.util.function.Supplier;

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

  /**
   * As {@link #toBytes(Serializable)}, with {@link BroadcastTable.Placeholder#TABLE} written where
   * {@code value} refers to {@code table} (the very object), so the table's bytes stay out.
   */
  static byte[] toBytesWithout(Serializable value, Object table) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new TableReplacingOutputStream(bytes, table)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize a " + value.getClass().getSimpleName(), e);
    }
    return bytes.toByteArray();
  }

  static <T> T fromBytes(byte[] bytes, Class<T> type) {
    return fromBytes(bytes, type, () -> null);
  }

  /**
   * Reads what {@link #toBytesWithout} wrote, putting {@code table}'s value where the placeholder
   * is.
   */
  static <T> T fromBytes(byte[] bytes, Class<T> type, Supplier<Object> table) {
    try (ObjectInputStream in =
        new ContextClassLoaderInputStream(new ByteArrayInputStream(bytes), table)) {
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

  private static final class TableReplacingOutputStream extends ObjectOutputStream {
    private final Object table;

    TableReplacingOutputStream(ByteArrayOutputStream out, Object table) throws IOException {
      super(out);
      this.table = table;
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object object) {
      return object == table ? BroadcastTable.Placeholder.TABLE : object;
    }
  }

  private static final class ContextClassLoaderInputStream extends ObjectInputStream {
    private final Supplier<Object> table;

    ContextClassLoaderInputStream(InputStream in, Supplier<Object> table) throws IOException {
      super(in);
      this.table = table;
      enableResolveObject(true);
    }

    @Override
    protected Object resolveObject(Object object) {
      if (object != BroadcastTable.Placeholder.TABLE) {
        return object;
      }
      Object value = table.get();
      if (value == null) {
        throw new IllegalStateException(
            "A task payload refers to a broadcast table it was not given");
      }
      return value;
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
