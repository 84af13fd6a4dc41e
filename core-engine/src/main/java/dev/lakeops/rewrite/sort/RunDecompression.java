package dev.lakeops.rewrite.sort;

import com.github.luben.zstd.ZstdDecompressCtx;

/**
 * The zstd context and the heap array a merge's run readers decompress buffers with, one for all of
 * them: the merge loads one batch at a time, and a context per reader would cost native memory per
 * run read.
 */
final class RunDecompression implements AutoCloseable {
  private final ZstdDecompressCtx context = new ZstdDecompressCtx();
  private byte[] scratch = new byte[0];

  /**
   * Decompresses a frame into the scratch array, returning it; the bytes are valid until the next
   * call.
   */
  byte[] decompress(byte[] stored, int offset, int storedLength, int rawLength) {
    if (scratch.length < rawLength) {
      scratch = new byte[Math.max(rawLength, 2 * scratch.length)];
    }
    int written = context.decompressByteArray(scratch, 0, rawLength, stored, offset, storedLength);
    if (written != rawLength) {
      throw new IllegalStateException(
          "a buffer decompressed to " + written + " bytes where its header says " + rawLength);
    }
    return scratch;
  }

  @Override
  public void close() {
    context.close();
  }
}
