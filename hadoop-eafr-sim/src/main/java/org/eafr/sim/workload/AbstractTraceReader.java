package org.eafr.sim.workload;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * A trace file read line by line, gzip or plain (told apart by the gzip magic bytes), in one place so readers only
 * parse lines. A path starting with {@code classpath:} reads a trace shipped in the simulator's jar.
 */
public abstract class AbstractTraceReader implements TraceReader {
  private final String source;
  private final BufferedReader lines;
  private long lineNumber;

  protected AbstractTraceReader(String path) {
    this(path, lines(path));
  }

  /** The lines of {@code path} (a file or {@code classpath:name}, gzip or plain). */
  protected static BufferedReader lines(String path) {
    return new BufferedReader(new InputStreamReader(open(path), StandardCharsets.UTF_8), 1 << 16);
  }

  /** A trace already in memory (a generated one), named {@code source} in error messages. */
  protected AbstractTraceReader(String source, BufferedReader lines) {
    this.source = source;
    this.lines = lines;
  }

  /** Opens {@code path} (a file or {@code classpath:name}), unzipping gzip; a missing trace throws naming it. */
  public static InputStream open(String path) {
    try {
      InputStream raw;
      if (path.startsWith("classpath:")) {
        String name = path.substring("classpath:".length());
        raw = AbstractTraceReader.class.getResourceAsStream("/traces/" + name);
        if (raw == null) {
          throw new IllegalArgumentException("trace " + path + " is not allowed: no such trace in the simulator's"
              + " jar; expected one of the traces under src/main/resources/traces");
        }
      } else {
        raw = Files.newInputStream(Path.of(path));
      }
      BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
      in.mark(2);
      int b1 = in.read();
      int b2 = in.read();
      in.reset();
      return b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("trace " + path + " is not allowed: the file does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + path, e);
    }
  }

  /** The next line, or null at the end. */
  protected final String nextLine() throws IOException {
    String line = lines.readLine();
    if (line != null) {
      lineNumber++;
    }
    return line;
  }

  /** An error naming the trace, the line and what was wrong. */
  protected final IllegalArgumentException malformed(String what) {
    return new IllegalArgumentException("trace " + source + " line " + lineNumber + ": " + what);
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
