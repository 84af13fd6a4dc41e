/**
 * File groups as self-contained tasks for other machines (e.g. Spark executors): the driver plans
 * and commits with {@link dev.lakeops.compact.TableCompactor}; {@link
 * dev.lakeops.distribute.RemoteGroupExecution} ships each group as a serializable {@link
 * dev.lakeops.distribute.GroupTask}, and {@link dev.lakeops.distribute.GroupTaskRunner} rewrites it
 * where it lands, under that worker's own memory budget.
 */
package dev.lakeops.distribute;
