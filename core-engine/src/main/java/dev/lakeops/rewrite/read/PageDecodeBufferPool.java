package dev.lakeops.rewrite.read;

import java.util.ArrayDeque;

/**
 * Lends each file reader one {@link PageDecodeBuffers} per column slot and takes them back when the
 * reader closes, so the next file a thread reads decodes into the same arrays. Input files often
 * hold a page or two per column: buffers kept per column chunk would be allocated anew for nearly
 * every page. Each thread lends from its own free list; readers open at once get distinct buffers.
 */
final class PageDecodeBufferPool {
  private final ThreadLocal<ArrayDeque<PageDecodeBuffers[]>> free =
      ThreadLocal.withInitial(ArrayDeque::new);

  /** Buffers for {@code slots} column slots, the caller's alone until {@link #giveBack}. */
  PageDecodeBuffers[] borrow(int slots) {
    PageDecodeBuffers[] buffers = free.get().poll();
    if (buffers == null || buffers.length < slots) {
      buffers = new PageDecodeBuffers[slots];
      for (int slot = 0; slot < slots; slot++) {
        buffers[slot] = new PageDecodeBuffers();
      }
    }
    return buffers;
  }

  /** Takes back buffers lent by {@link #borrow}, from the thread that borrowed them. */
  void giveBack(PageDecodeBuffers[] buffers) {
    free.get().push(buffers);
  }
}
