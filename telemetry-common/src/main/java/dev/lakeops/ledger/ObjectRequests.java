package dev.lakeops.ledger;

/**
 * Object storage requests by kind, each HTTP attempt counted once (a retried request counts twice).
 * Multipart uploads' parts and their create and complete calls count as PUT, the batch {@code
 * DeleteObjects} as DELETE; a request of none of the five kinds counts as other.
 *
 * @param get GetObject and other reads of an object's bytes
 * @param put PutObject, CreateMultipartUpload, UploadPart, CompleteMultipartUpload, CopyObject
 * @param head HeadObject, HeadBucket
 * @param list ListObjectsV2, ListObjects, ListMultipartUploads, ListParts
 * @param delete DeleteObject, DeleteObjects, AbortMultipartUpload
 * @param other every other request
 */
public record ObjectRequests(long get, long put, long head, long list, long delete, long other) {
  /** No requests. */
  public static final ObjectRequests NONE = new ObjectRequests(0, 0, 0, 0, 0, 0);

  public ObjectRequests {
    if (get < 0 || put < 0 || head < 0 || list < 0 || delete < 0 || other < 0) {
      throw new IllegalArgumentException("Request counts must not be negative: " + this);
    }
  }

  /** Requests of every kind together. */
  public long total() {
    return get + put + head + list + delete + other;
  }
}
