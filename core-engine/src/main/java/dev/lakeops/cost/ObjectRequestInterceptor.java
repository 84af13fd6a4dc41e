package dev.lakeops.cost;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpHeaders;

/**
 * Reports every HTTP attempt of the AWS SDK's S3 clients to {@link ObjectRequestMeter#process()}.
 * The SDK attaches it to every client it builds (Iceberg's {@code S3FileIO}, a REST catalog's
 * FileIO, any other) through the class path resource {@code
 * software/amazon/awssdk/global/handlers/execution.interceptors}, without their configuration.
 *
 * <p>An attempt starts when it is transmitted and ends when its response arrives or the execution
 * fails; a retry is a new attempt. Object bytes written are the PUT requests' body lengths, object
 * bytes read the GET responses' {@code Content-Length}. Requests to other services (STS, KMS, Glue)
 * are not object requests and are left out.
 */
public final class ObjectRequestInterceptor implements ExecutionInterceptor {
  private static final String S3_SERVICE = "S3";

  /** The kind of the execution's attempt in flight; empty between attempts. */
  private static final ExecutionAttribute<Optional<RequestKind>> ATTEMPT_IN_FLIGHT =
      new ExecutionAttribute<>("lakeops.object-request-in-flight");

  private final ObjectRequestMeter meter;

  /** The interceptor the SDK builds: reports to the process's meter. */
  public ObjectRequestInterceptor() {
    this(ObjectRequestMeter.process());
  }

  ObjectRequestInterceptor(ObjectRequestMeter meter) {
    this.meter = requireNonNull(meter, "meter is null");
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    if (!isObjectStorage(attributes)) {
      return;
    }
    finishAttempt(attributes, 0);
    RequestKind kind =
        RequestKind.of(
            attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
            context.httpRequest().method().name());
    long bytesSent = kind == RequestKind.PUT ? bytesSent(context) : 0;
    attributes.putAttribute(ATTEMPT_IN_FLIGHT, Optional.of(kind));
    meter.attemptStarted(kind, bytesSent);
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    Optional<RequestKind> kind = inFlight(attributes);
    if (kind.isPresent()) {
      finishAttempt(
          attributes, kind.get() == RequestKind.GET ? contentLength(context.httpResponse()) : 0);
    }
  }

  @Override
  public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
    finishAttempt(attributes, 0);
  }

  private void finishAttempt(ExecutionAttributes attributes, long bytesReceived) {
    if (inFlight(attributes).isPresent()) {
      attributes.putAttribute(ATTEMPT_IN_FLIGHT, Optional.empty());
      meter.attemptFinished(bytesReceived);
    }
  }

  private static Optional<RequestKind> inFlight(ExecutionAttributes attributes) {
    return attributes.getOptionalAttribute(ATTEMPT_IN_FLIGHT).flatMap(kind -> kind);
  }

  private static boolean isObjectStorage(ExecutionAttributes attributes) {
    return S3_SERVICE.equals(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME));
  }

  /**
   * The object bytes a PUT carries: with chunked signing the header names the decoded length, else
   * the body's {@code Content-Length}.
   */
  private static long bytesSent(Context.BeforeTransmission context) {
    Optional<String> decoded =
        context.httpRequest().firstMatchingHeader("x-amz-decoded-content-length");
    if (decoded.isPresent()) {
      return parse(decoded.get());
    }
    long declared = contentLength(context.httpRequest());
    if (declared > 0) {
      return declared;
    }
    return context.requestBody().flatMap(body -> body.optionalContentLength()).orElse(0L);
  }

  private static long contentLength(SdkHttpHeaders headers) {
    return headers
        .firstMatchingHeader("Content-Length")
        .map(ObjectRequestInterceptor::parse)
        .orElse(0L);
  }

  private static long parse(String value) {
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
