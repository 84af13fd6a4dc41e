package dev.lakeops.testing;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.middleware.LatencyBlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

/**
 * A real S3 API server (s3proxy over a folder) on 127.0.0.1, with a bucket, optionally adding a
 * fixed latency to every request the way a cloud object store answers (s3proxy's own {@code
 * LatencyBlobStore} middleware). Iceberg's {@code S3FileIO} talks to it with {@link
 * #fileIoProperties()}.
 */
public final class S3TestServer implements AutoCloseable {
  public static final String ACCESS_KEY = "lakeops";
  public static final String SECRET_KEY = "lakeops-secret";

  private final S3Proxy proxy;
  private final BlobStore blobStore;
  private final CountingBlobStore requests;
  private final String bucket;
  private final Path blobDirectory;

  private S3TestServer(
      S3Proxy proxy,
      BlobStore blobStore,
      CountingBlobStore requests,
      String bucket,
      Path blobDirectory) {
    this.proxy = requireNonNull(proxy, "proxy is null");
    this.requests = requireNonNull(requests, "requests is null");
    this.blobStore = requireNonNull(blobStore, "blobStore is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
    this.blobDirectory = requireNonNull(blobDirectory, "blobDirectory is null");
  }

  /**
   * A server without added latency, its blobs under {@code directory}, with bucket {@code lake}.
   */
  public static S3TestServer start(Path directory) throws Exception {
    return start(directory, "lake", Duration.ZERO);
  }

  /**
   * A server whose every request waits {@code latency} before it is served, its blobs under {@code
   * directory}, with {@code bucket} created.
   */
  public static S3TestServer start(Path directory, String bucket, Duration latency)
      throws Exception {
    Path blobs = directory.resolve("blobs");
    Files.createDirectories(blobs);
    BlobStore fileStore = new FilesystemNio2BlobStore(blobs.toString());
    CountingBlobStore counting =
        new CountingBlobStore(latency.isZero() ? fileStore : withLatency(fileStore, latency));
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(counting)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .jettyMaxThreads(256)
            .build();
    proxy.start();
    Conditions.await(
        "S3Proxy to start", Duration.ofSeconds(30), () -> proxy.getState().equals("STARTED"));
    if (!Files.isDirectory(blobs.resolve(bucket))) {
      // a server started again over the same folder finds its bucket there
      fileStore.createContainer(bucket);
    }
    return new S3TestServer(proxy, fileStore, counting, bucket, blobs.resolve(bucket));
  }

  /** s3proxy's latency middleware around {@code store}, {@code latency} on every operation. */
  private static BlobStore withLatency(BlobStore store, Duration latency) throws Exception {
    Properties properties = new Properties();
    properties.setProperty(
        "s3proxy.latency-blobstore.*.latency", Long.toString(latency.toMillis()));
    Map<String, Long> latencies = LatencyBlobStore.parseLatencies(properties);
    Map<String, Long> speeds = LatencyBlobStore.parseSpeeds(properties);
    // the factory s3proxy's own Main uses is package-private
    Method factory =
        LatencyBlobStore.class.getDeclaredMethod(
            "newLatencyBlobStore", BlobStore.class, Map.class, Map.class);
    factory.setAccessible(true);
    try {
      return (BlobStore) factory.invoke(null, store, latencies, speeds);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("Cannot add latency to the blob store", e.getCause());
    }
  }

  /** The requests this server answered, by kind; {@link CountingBlobStore#reset()} starts over. */
  public CountingBlobStore requests() {
    return requests;
  }

  public int port() {
    return proxy.getPort();
  }

  public String bucket() {
    return bucket;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /** The folder that holds the bucket's objects, one file per key. */
  public Path bucketDirectory() {
    return blobDirectory;
  }

  /** {@code s3://bucket/path}. */
  public String location(String path) {
    return "s3://" + bucket + "/" + path;
  }

  /** Properties of an Iceberg {@code S3FileIO} that talks to this server. */
  public Map<String, String> fileIoProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    properties.put("s3.endpoint", endpoint());
    properties.put("s3.path-style-access", "true");
    properties.put("s3.access-key-id", ACCESS_KEY);
    properties.put("s3.secret-access-key", SECRET_KEY);
    properties.put("client.region", "us-east-1");
    return properties;
  }

  /**
   * Properties of a JDBC catalog on a SQLite file whose tables live in this server under {@code
   * s3://bucket/warehouse}.
   */
  public Map<String, String> jdbcCatalogProperties(Path sqliteFile) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("type", "jdbc");
    properties.put("uri", "jdbc:sqlite:" + sqliteFile);
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", location("warehouse"));
    properties.putAll(fileIoProperties());
    return properties;
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.stop();
    } finally {
      blobStore.close();
    }
  }
}
