package dev.lakeops.spark.bench;

/**
 * The S3 requests the object-storage benchmark counts on the server, by HTTP method as the S3 API
 * names them: {@code GET} object, {@code PUT} object (single or multipart part, and copies), {@code
 * HEAD} object or bucket, {@code LIST} objects, {@code DELETE} object (a multi-object delete counts
 * once), {@code POST} (starting or completing a multipart upload) and everything else.
 */
enum RequestKind {
  GET,
  PUT,
  HEAD,
  LIST,
  DELETE,
  POST,
  OTHER
}
