package dev.lakeops.spark.bench;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListBucketsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The blob store s3proxy serves, counting every request by {@link RequestKind} and tracking how
 * many are in flight ({@link InFlightGauge}), so the benchmark's request figures come from the
 * server and not from either engine's own reporting.
 */
final class CountingBlobStore extends ForwardingBlobStore {
  private final Map<RequestKind, LongAdder> counts = new EnumMap<>(RequestKind.class);
  private final InFlightGauge inFlight = new InFlightGauge();

  CountingBlobStore(BlobStore delegate) {
    super(delegate);
    for (RequestKind kind : RequestKind.values()) {
      counts.put(kind, new LongAdder());
    }
  }

  /** Forgets the counts so far and starts a new window of in-flight figures. */
  void reset() {
    counts.values().forEach(LongAdder::reset);
    inFlight.reset();
  }

  /** The requests since {@link #reset}. */
  RequestCounts snapshot() {
    Map<RequestKind, Long> byKind = new EnumMap<>(RequestKind.class);
    counts.forEach((kind, count) -> byKind.put(kind, count.sum()));
    return new RequestCounts(byKind, inFlight.peak(), inFlight.mean());
  }

  @Override
  public ListBucketsResponse list() {
    return counted(RequestKind.LIST, () -> super.list());
  }

  @Override
  public ListObjectsV2Response list(ListObjectsV2Request request) {
    return counted(RequestKind.LIST, () -> super.list(request));
  }

  @Override
  public HeadBucketResponse headBucket(HeadBucketRequest request) {
    return counted(RequestKind.HEAD, () -> super.headBucket(request));
  }

  @Override
  public boolean blobExists(String container, String name) {
    return counted(RequestKind.HEAD, () -> super.blobExists(container, name));
  }

  @Override
  public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
    return counted(RequestKind.HEAD, () -> super.blobMetadata(request));
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
    return counted(RequestKind.PUT, () -> super.putBlob(request, input));
  }

  @Override
  public CopyObjectResponse copyBlob(CopyObjectRequest request) {
    return counted(RequestKind.PUT, () -> super.copyBlob(request));
  }

  @Override
  public UploadPartResponse uploadMultipartPart(
      MultipartUpload upload, UploadPartRequest request, InputStream input) {
    return counted(RequestKind.PUT, () -> super.uploadMultipartPart(upload, request, input));
  }

  @Override
  public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
    return counted(RequestKind.POST, () -> super.initiateMultipartUpload(request));
  }

  @Override
  public CompleteMultipartUploadResponse completeMultipartUpload(
      MultipartUpload upload, CompleteMultipartUploadRequest request) {
    return counted(RequestKind.POST, () -> super.completeMultipartUpload(upload, request));
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) {
    counted(
        RequestKind.DELETE,
        () -> {
          super.abortMultipartUpload(upload);
          return null;
        });
  }

  @Override
  public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
    return counted(RequestKind.DELETE, () -> super.removeBlob(request));
  }

  @Override
  public DeleteObjectsResponse removeBlobs(DeleteObjectsRequest request) {
    return counted(RequestKind.DELETE, () -> delegate().removeBlobs(request));
  }

  /** A {@code GET} stays in flight until its body was read and closed. */
  @Override
  public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
    counts.get(RequestKind.GET).increment();
    inFlight.enter();
    try {
      ResponseInputStream<GetObjectResponse> blob = super.getBlob(request);
      return new ResponseInputStream<>(blob.response(), new ExitOnClose(blob, inFlight));
    } catch (RuntimeException | Error e) {
      inFlight.exit();
      throw e;
    }
  }

  private <T> T counted(RequestKind kind, Supplier<T> call) {
    counts.get(kind).increment();
    inFlight.enter();
    try {
      return call.get();
    } finally {
      inFlight.exit();
    }
  }

  /** A body stream that ends its request's time in flight when it is closed, once. */
  private static final class ExitOnClose extends FilterInputStream {
    private final InFlightGauge gauge;
    private final AtomicBoolean closed = new AtomicBoolean();

    ExitOnClose(InputStream body, InFlightGauge gauge) {
      super(body);
      this.gauge = gauge;
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        if (closed.compareAndSet(false, true)) {
          gauge.exit();
        }
      }
    }
  }
}
