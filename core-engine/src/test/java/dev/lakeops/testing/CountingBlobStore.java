package dev.lakeops.testing;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Counts the requests the S3 server answers, by kind (GET, PUT, HEAD, LIST, DELETE), and the most
 * GETs it served at once: what a client costs, seen from the server's side.
 */
public final class CountingBlobStore extends ForwardingBlobStore {
  private final Map<String, AtomicLong> counts = new TreeMap<>();
  private final AtomicInteger getsInFlight = new AtomicInteger();
  private final AtomicInteger peakGetsInFlight = new AtomicInteger();
  private final Queue<String> log = new ConcurrentLinkedQueue<>();

  public CountingBlobStore(BlobStore delegate) {
    super(delegate);
    for (String kind : new String[] {"GET", "PUT", "HEAD", "LIST", "DELETE"}) {
      counts.put(kind, new AtomicLong());
    }
  }

  /** Requests by kind since the last {@link #reset()}. */
  public Map<String, Long> counts() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((kind, count) -> copy.put(kind, count.get()));
    return copy;
  }

  public long count(String kind) {
    return counts.get(kind).get();
  }

  /** The most GETs served at once since the last {@link #reset()}. */
  public int peakGetsInFlight() {
    return peakGetsInFlight.get();
  }

  /** Every request since the last {@link #reset()}: kind, a space, the object key. */
  public List<String> log() {
    return List.copyOf(log);
  }

  /** The keys of the requests of {@code kind} since the last {@link #reset()}, in order. */
  public List<String> keys(String kind) {
    return log.stream()
        .filter(entry -> entry.startsWith(kind + " "))
        .map(entry -> entry.substring(kind.length() + 1))
        .toList();
  }

  public void reset() {
    counts.values().forEach(count -> count.set(0));
    peakGetsInFlight.set(0);
    log.clear();
  }

  private void record(String kind, String key) {
    counts.get(kind).incrementAndGet();
    log.add(kind + " " + key);
  }

  @Override
  public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
    record("GET", request.key());
    int now = getsInFlight.incrementAndGet();
    peakGetsInFlight.accumulateAndGet(now, Math::max);
    try {
      return super.getBlob(request);
    } finally {
      getsInFlight.decrementAndGet();
    }
  }

  @Override
  public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
    record("HEAD", request.key());
    return super.blobMetadata(request);
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
    record("PUT", request.key());
    return super.putBlob(request, input);
  }

  @Override
  public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
    record("PUT", request.key());
    return super.initiateMultipartUpload(request);
  }

  @Override
  public UploadPartResponse uploadMultipartPart(
      MultipartUpload upload, UploadPartRequest request, InputStream input) {
    record("PUT", request.key());
    return super.uploadMultipartPart(upload, request, input);
  }

  @Override
  public CompleteMultipartUploadResponse completeMultipartUpload(
      MultipartUpload upload, CompleteMultipartUploadRequest request) {
    record("PUT", request.key());
    return super.completeMultipartUpload(upload, request);
  }

  @Override
  public ListObjectsV2Response list(ListObjectsV2Request request) {
    record("LIST", request.prefix() == null ? "" : request.prefix());
    return super.list(request);
  }

  @Override
  public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
    record("DELETE", request.key());
    return super.removeBlob(request);
  }
}
