package dev.lakeops.operation;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The arguments a caller gave one operation, as its host parsed them, before any default applies:
 * keyed by contract name ({@code memory_budget}), values as the host read them (a {@code String}, a
 * {@code Long} or {@code Integer}, a {@code Boolean}, a {@code List}, a {@code Map}, a {@link
 * dev.lakeops.unit.ByteSize}, a {@link java.time.Duration} or {@link Instant} for a cutoff, a
 * {@link java.nio.file.Path}). An argument left out is absent, never NULL. The binders ({@code
 * dev.lakeops.operation.call.OperationCalls}) check the values and apply the contract's defaults;
 * an error names the argument as this host spells it.
 *
 * @param host the caller's host, which decides how an argument is spelled in an error
 * @param values the given arguments by contract name (or {@link HostSettings} name)
 * @param spellings the spelling a value was given under when it was a deprecated alias
 * @param now the moment an age ({@code 7d}) counts back from
 * @param zone the time zone a timestamp without offset is read in
 */
public record OperationArguments(
    Host host,
    Map<String, Object> values,
    Map<String, String> spellings,
    Instant now,
    ZoneId zone) {
  public OperationArguments {
    requireNonNull(host, "host is null");
    values = Map.copyOf(requireNonNull(values, "values is null"));
    spellings = Map.copyOf(requireNonNull(spellings, "spellings is null"));
    requireNonNull(now, "now is null");
    requireNonNull(zone, "zone is null");
  }

  /** No arguments yet, from {@code host}, at the current time, timestamps read in UTC. */
  public static OperationArguments on(Host host) {
    return new OperationArguments(host, Map.of(), Map.of(), Instant.now(), ZoneOffset.UTC);
  }

  /** These arguments with {@code name} set to {@code value}; a NULL value leaves it out. */
  public OperationArguments with(String name, Object value) {
    requireNonNull(name, "name is null");
    if (value == null) {
      return this;
    }
    Map<String, Object> all = new LinkedHashMap<>(values);
    all.put(name, value);
    return new OperationArguments(host, all, spellings, now, zone);
  }

  /**
   * These arguments with {@code name} given under its deprecated spelling {@code spelling} (Spark's
   * {@code memory}); an error about the value names that spelling. A NULL value leaves it out.
   */
  public OperationArguments withAlias(String name, String spelling, Object value) {
    requireNonNull(spelling, "spelling is null");
    if (value == null) {
      return this;
    }
    Map<String, String> all = new LinkedHashMap<>(spellings);
    all.put(name, spelling);
    return with(name, value).withSpellings(all);
  }

  /** These arguments with cutoffs counted back from {@code instant}, read in {@code timeZone}. */
  public OperationArguments at(Instant instant, ZoneId timeZone) {
    return new OperationArguments(host, values, spellings, instant, timeZone);
  }

  /** The value given for {@code name}, as the host parsed it. */
  public Optional<Object> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /** Whether the caller asked for a dry run ({@code dry_run}, default false). */
  public boolean dryRun() {
    return Boolean.TRUE.equals(values.get(Operations.DRY_RUN));
  }

  private OperationArguments withSpellings(Map<String, String> all) {
    return new OperationArguments(host, values, all, now, zone);
  }
}
