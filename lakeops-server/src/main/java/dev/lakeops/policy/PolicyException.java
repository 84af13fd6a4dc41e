package dev.lakeops.policy;

/** A policy file or a {@code lakeops.*} table property the policy cannot accept; one line. */
public final class PolicyException extends RuntimeException {
  public PolicyException(String message) {
    super(message);
  }
}
