package dev.lakeops.cost;

import java.util.Locale;
import java.util.Map;

/** The kind an object storage request is billed as. */
public enum RequestKind {
  GET,
  PUT,
  HEAD,
  LIST,
  DELETE,
  OTHER;

  private static final Map<String, RequestKind> OPERATIONS =
      Map.ofEntries(
          Map.entry("GetObject", GET),
          Map.entry("PutObject", PUT),
          Map.entry("CopyObject", PUT),
          Map.entry("CreateMultipartUpload", PUT),
          Map.entry("UploadPart", PUT),
          Map.entry("UploadPartCopy", PUT),
          Map.entry("CompleteMultipartUpload", PUT),
          Map.entry("HeadObject", HEAD),
          Map.entry("HeadBucket", HEAD),
          Map.entry("ListObjects", LIST),
          Map.entry("ListObjectsV2", LIST),
          Map.entry("ListObjectVersions", LIST),
          Map.entry("ListMultipartUploads", LIST),
          Map.entry("ListParts", LIST),
          Map.entry("DeleteObject", DELETE),
          Map.entry("DeleteObjects", DELETE),
          Map.entry("AbortMultipartUpload", DELETE));

  /**
   * The kind of a request: from the SDK's operation name where it names one of the object
   * operations above, else from its HTTP method ({@code POST} and anything unknown are {@link
   * #OTHER}).
   */
  public static RequestKind of(String operationName, String httpMethod) {
    if (operationName != null) {
      RequestKind kind = OPERATIONS.get(operationName);
      if (kind != null) {
        return kind;
      }
    }
    if (httpMethod == null) {
      return OTHER;
    }
    return switch (httpMethod.toUpperCase(Locale.ROOT)) {
      case "GET" -> GET;
      case "PUT" -> PUT;
      case "HEAD" -> HEAD;
      case "DELETE" -> DELETE;
      default -> OTHER;
    };
  }
}
