package dev.lakeops.rewrite.sort;

/** A stable merge sort of an {@code int[]} of row indexes by a comparator over the rows. */
final class IndexSorter {
  private static final int INSERTION_SORT_LIMIT = 16;

  /** Compares the rows two indexes point at. */
  @FunctionalInterface
  interface IndexComparator {
    int compare(int left, int right);
  }

  private IndexSorter() {}

  static void sort(int[] indexes, int length, IndexComparator comparator) {
    int[] scratch = new int[length];
    System.arraycopy(indexes, 0, scratch, 0, length);
    mergeSort(scratch, indexes, 0, length, comparator);
  }

  /**
   * Sorts {@code source[from, to)} into {@code target[from, to)}; both start with equal content.
   */
  private static void mergeSort(
      int[] source, int[] target, int from, int to, IndexComparator comparator) {
    if (to - from <= INSERTION_SORT_LIMIT) {
      for (int index = from + 1; index < to; index++) {
        int value = target[index];
        int position = index - 1;
        while (position >= from && comparator.compare(target[position], value) > 0) {
          target[position + 1] = target[position];
          position--;
        }
        target[position + 1] = value;
      }
      return;
    }
    int middle = (from + to) >>> 1;
    mergeSort(target, source, from, middle, comparator);
    mergeSort(target, source, middle, to, comparator);
    int left = from;
    int right = middle;
    for (int index = from; index < to; index++) {
      if (right >= to || (left < middle && comparator.compare(source[left], source[right]) <= 0)) {
        target[index] = source[left++];
      } else {
        target[index] = source[right++];
      }
    }
  }
}
