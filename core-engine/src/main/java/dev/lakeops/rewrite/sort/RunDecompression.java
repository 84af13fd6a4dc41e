package dev.lakeops.rewrite.sort;

import com.github.luben.zstd.ZstdDecompressCtx;

/**
 * The zstd context, the string unpacker and the heap array a merge's run readers restore buffers
 * with, one for all of them: the merge loads one batch at a time, and a context and arrays per
 * reader would cost memory per run read.
 */
final class RunDecompression implements AutoCloseable {
  private final ZstdDecompressCtx context = new ZstdDecompressCtx();
  private final PackedStrings packedStrings = new PackedStrings();
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

  /**
   * Unpacks {@link PackedStrings} into the scratch array, returning it; the bytes are valid until
   * the next call.
   *
   * @throws IllegalArgumentException when the packed bytes do not hold such values
   */
  byte[] unpackStrings(
      byte[] stored, int offset, int storedLength, long offsetsAddress, int rows, int rawLength) {
    if (scratch.length < rawLength + Long.BYTES) {
      scratch = new byte[Math.max(rawLength + Long.BYTES, 2 * scratch.length)];
    }
    packedStrings.unpack(stored, offset, storedLength, offsetsAddress, rows, rawLength, scratch);
    return scratch;
  }

  @Override
  public void close() {
    context.close();
  }
}
