/**
 * What a run costs: the object storage requests and bytes of every AWS SDK client in the process,
 * the requests in flight, and the process's CPU time, seen through a window a run opens when it
 * starts and closes when it ends.
 */
package dev.lakeops.cost;
