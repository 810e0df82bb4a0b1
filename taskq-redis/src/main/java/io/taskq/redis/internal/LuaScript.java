package io.taskq.redis.internal;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One Lua script shipped as a resource, called by its SHA-1 (D13).
 *
 * <p>The script is loaded with {@code SCRIPT LOAD} before its first call, then always called with
 * {@code EVALSHA}, so its text crosses the network once rather than on every call. Redis forgets
 * scripts on {@code SCRIPT FLUSH}, a restart or a failover; the next call then answers {@code
 * NOSCRIPT}, and the script is loaded again and the call repeated, transparently. Every script
 * touches exactly one key, so it runs unchanged on Redis Cluster without hash tags.
 */
public final class LuaScript {
  private final String name;
  private final String source;
  private final String sha;
  private final AtomicInteger loads = new AtomicInteger();
  private volatile boolean loaded;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source;
    this.sha = sha1(source);
  }

  /** The script in resource {@code name} next to this class, e.g. {@code gcra.lua}. */
  public static LuaScript fromResource(String name) {
    try (InputStream in = LuaScript.class.getResourceAsStream(name)) {
      Objects.requireNonNull(in, () -> "Lua script resource " + name + " is missing");
      return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Lua script resource " + name, e);
    }
  }

  /** Runs the script on {@code key} with {@code args}; it returns an array (Lua table). */
  @SuppressWarnings("unchecked") // ScriptOutputType.MULTI answers a List
  public List<Object> multi(RedisCommands<String, String> redis, String key, String... args) {
    return (List<Object>) Objects.requireNonNull(run(redis, ScriptOutputType.MULTI, key, args));
  }

  /** Runs the script on {@code key} with {@code args}; it returns a string. */
  public @Nullable String value(RedisCommands<String, String> redis, String key, String... args) {
    Object answer = run(redis, ScriptOutputType.VALUE, key, args);
    return answer == null ? null : answer.toString();
  }

  /**
   * Runs the script on {@code key} with {@code args}, loading it first if this JVM has not yet or
   * Redis has forgotten it.
   */
  private @Nullable Object run(
      RedisCommands<String, String> redis, ScriptOutputType output, String key, String... args) {
    if (!loaded) {
      load(redis);
    }
    String[] keys = {key};
    try {
      return redis.evalsha(sha, output, keys, args);
    } catch (RedisNoScriptException forgotten) {
      load(redis);
      return redis.evalsha(sha, output, keys, args);
    }
  }

  private void load(RedisCommands<String, String> redis) {
    String answered = redis.scriptLoad(source);
    if (!sha.equalsIgnoreCase(answered)) {
      throw new IllegalStateException(
          "Redis answered SHA " + answered + " for script " + name + ", expected " + sha);
    }
    loads.incrementAndGet();
    loaded = true;
  }

  /** The script's SHA-1, as {@code EVALSHA} takes it. */
  public String sha() {
    return sha;
  }

  /** How many times this script was loaded into Redis (once, plus once per {@code NOSCRIPT}). */
  public int loads() {
    return loads.get();
  }

  private static String sha1(String source) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-1");
      return HexFormat.of().formatHex(digest.digest(source.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
  }

  @Override
  public String toString() {
    return "LuaScript{" + name + ", sha=" + sha + "}";
  }
}
