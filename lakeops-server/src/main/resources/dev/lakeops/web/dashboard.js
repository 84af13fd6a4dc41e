/* LakeOps dashboard: renders /api/tables (overview) and /api/tables/{table} (table page) with uPlot.
   A standalone report sets window.LAKEOPS_DATA and is rendered from it without any request. */
(function () {
  'use strict';
  var REFRESH_MILLIS = 15000;
  var COLORS = { health: '#3563e9', now: '#d1333b', after: '#1f9d55', rewritten: '#6b4fd8' };

  function bytes(value) {
    if (value === null || value === undefined) return '–';
    var units = ['B', 'KB', 'MB', 'GB', 'TB'];
    var unit = 0;
    while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
    return (unit === 0 ? value : value.toFixed(1)) + ' ' + units[unit];
  }
  function seconds(value) {
    if (value === null || value === undefined) return '–';
    if (value < 60) return value.toFixed(1) + ' s';
    if (value < 3600) return (value / 60).toFixed(1) + ' min';
    return (value / 3600).toFixed(1) + ' h';
  }
  function when(iso) {
    if (!iso) return '–';
    var date = new Date(iso);
    return date.toISOString().replace('T', ' ').substring(0, 19) + 'Z';
  }
  function count(value) { return value === null || value === undefined ? '–' : value.toLocaleString('en'); }
  function withPrediction(actual, predicted, format) {
    var text = format(actual);
    return predicted === null || predicted === undefined ? text : text + ' (' + format(predicted) + ')';
  }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function cell(row, text, className) { var td = element('td', className, text); row.appendChild(td); return td; }
  function scoreBadge(score) {
    return element('span', 'score ' + (score >= 80 ? 'good' : score >= 50 ? 'warn' : 'bad'), String(score));
  }
  function clear(tbody) { while (tbody.firstChild) tbody.removeChild(tbody.firstChild); }
  function emptyRow(tbody, columns, text) {
    var row = element('tr'); var td = cell(row, text, 'empty'); td.colSpan = columns; tbody.appendChild(row);
  }
  function tablePath(name) { return '/tables/' + encodeURIComponent(name); }

  function markRendered(container) {
    container.setAttribute('data-rendered', 'true');
    var drawn = Number(document.body.getAttribute('data-charts-rendered') || '0') + 1;
    document.body.setAttribute('data-charts-rendered', String(drawn));
  }

  function sparkline(container, points) {
    container.textContent = '';
    var xs = points.map(function (p) { return p.at; });
    var ys = points.map(function (p) { return p.health_score; });
    if (xs.length === 1) { xs = [xs[0] - 60, xs[0]]; ys = [ys[0], ys[0]]; }
    new uPlot({
      width: 140, height: 32, legend: { show: false }, cursor: { show: false },
      scales: { x: { time: true }, y: { range: [0, 100] } },
      axes: [{ show: false }, { show: false }],
      series: [{}, { stroke: COLORS.health, width: 1.5, fill: 'rgba(53,99,233,0.12)', points: { show: false } }]
    }, [xs, ys], container);
    markRendered(container);
  }

  function chartWidth(container) { return Math.max(320, container.clientWidth || 420); }

  function lineChart(container, points) {
    container.textContent = '';
    var xs = points.map(function (p) { return p.at; });
    new uPlot({
      width: chartWidth(container), height: 220, legend: { live: false },
      scales: { x: { time: true }, y: { range: [0, 100] } },
      axes: [{}, { label: 'health' }],
      series: [{}, { label: 'health score', stroke: COLORS.health, width: 2, fill: 'rgba(53,99,233,0.10)' }]
    }, [xs, points.map(function (p) { return p.health_score; })], container);
    markRendered(container);
  }

  function barChart(container, labels, series, formatValue) {
    container.textContent = '';
    var xs = labels.map(function (label, index) { return index; });
    var count = series.length;
    var options = {
      width: chartWidth(container), height: 220, legend: { live: false },
      scales: { x: { time: false, range: [-0.6, labels.length - 0.4] } },
      axes: [{ values: function (u, splits) { return splits.map(function (i) { return labels[i] === undefined ? '' : labels[i]; }); },
               splits: function () { return xs; } },
             { size: 70, values: function (u, splits) { return splits.map(formatValue || count); } }],
      series: [{}]
    };
    var data = [xs];
    series.forEach(function (one, index) {
      options.series.push({
        label: one.label, stroke: one.color, fill: one.color + 'b0', width: 1,
        paths: uPlot.paths.bars({ size: [count > 1 ? 0.4 : 0.7, 60], align: count > 1 ? (index === 0 ? -1 : 1) : 0 }),
        points: { show: false }
      });
      data.push(one.values);
    });
    new uPlot(options, data, container);
    markRendered(container);
  }

  function runRow(tbody, run, withTable) {
    var row = element('tr');
    cell(row, when(run.started_at));
    if (withTable) {
      var link = element('a', null, run.table); link.href = tablePath(run.table);
      cell(row, '').appendChild(link);
    }
    cell(row, run.operation);
    cell(row, run.host);
    cell(row, run.status, 'status ' + run.status).title = run.error || '';
    cell(row, withPrediction(run.duration_seconds, run.predicted_seconds, seconds), 'num');
    cell(row, bytes(run.input_bytes), 'num');
    cell(row, withPrediction(run.peak_memory_bytes, run.predicted_peak_memory_bytes, bytes), 'num');
    cell(row, run.error ? run.reason + ' — ' + run.error : run.reason, 'reason');
    tbody.appendChild(row);
  }

  /* The overview's table list: one page of /api/tables, searched and sorted on the server. */
  var PAGE_SIZE = 50;
  var listing = { q: '', sort: 'health', offset: 0 };
  function tablesUrl() {
    return '/api/tables?limit=' + PAGE_SIZE + '&offset=' + listing.offset + '&sort=' + listing.sort
      + (listing.q ? '&q=' + encodeURIComponent(listing.q) : '');
  }
  function renderPaging(lake) {
    var controls = document.getElementById('table-controls');
    if (!controls) return;
    if (lake.lake_tables === undefined) { controls.style.display = 'none'; return; }
    var shown = lake.tables.length;
    document.getElementById('tables-page').textContent = shown === 0 ? '0 of ' + count(lake.matching_tables)
      : count(lake.offset + 1) + '–' + count(lake.offset + shown) + ' of ' + count(lake.matching_tables)
        + (listing.q ? ' matching' : '');
    document.getElementById('tables-previous').disabled = lake.offset === 0;
    document.getElementById('tables-next').disabled = lake.next_offset === null;
  }
  function wireListing(reload) {
    var search = document.getElementById('table-search');
    var timer = null;
    search.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { listing.q = search.value.trim(); listing.offset = 0; reload(); }, 250);
    });
    document.getElementById('table-sort').addEventListener('change', function (event) {
      listing.sort = event.target.value; listing.offset = 0; reload();
    });
    document.getElementById('tables-previous').addEventListener('click', function () {
      listing.offset = Math.max(0, listing.offset - PAGE_SIZE); reload();
    });
    document.getElementById('tables-next').addEventListener('click', function () {
      listing.offset += PAGE_SIZE; reload();
    });
  }

  function renderOverview(lake) {
    document.getElementById('updated').textContent = 'as of ' + when(lake.generated_at);
    var paged = lake.lake_tables !== undefined;
    document.getElementById('table-count').textContent = count(paged ? lake.lake_tables : lake.tables.length);
    document.getElementById('unhealthy-count').textContent = count(paged ? lake.unhealthy_tables
      : lake.tables.filter(function (t) { return t.health_score < 80; }).length);
    renderPaging(lake);
    document.getElementById('queue-depth').textContent = count(lake.queue.length);
    var budget = lake.budget;
    document.getElementById('budget-used').style.width =
      (budget.total_bytes > 0 ? Math.min(100, 100 * budget.used_bytes / budget.total_bytes) : 0) + '%';
    document.getElementById('budget-text').textContent = budget.total_bytes > 0
      ? bytes(budget.used_bytes) + ' of ' + bytes(budget.total_bytes) : 'no budget set';

    var tbody = document.querySelector('#tables tbody');
    clear(tbody);
    if (lake.tables.length === 0) {
      emptyRow(tbody, 9, paged && lake.lake_tables > 0 ? 'No table matches the search.' : 'No table evaluated yet.');
    }
    var sparklines = [];
    lake.tables.forEach(function (table) {
      var row = element('tr');
      row.setAttribute('data-table', table.table);
      var link = element('a', null, table.table); link.href = tablePath(table.table);
      cell(row, '').appendChild(link);
      var health = cell(row, ''); health.appendChild(scoreBadge(table.health_score));
      if (table.worst_part) health.appendChild(element('div', 'reason', table.worst_part));
      var spark = element('div', 'sparkline'); cell(row, '').appendChild(spark);
      sparklines.push([spark, table.health_history]);
      cell(row, count(table.small_files), 'num');
      cell(row, count(table.delete_files), 'num');
      cell(row, count(table.data_files), 'num');
      cell(row, bytes(table.data_bytes), 'num');
      var last = table.last_run;
      var lastCell = cell(row, '');
      if (last) {
        lastCell.appendChild(element('span', 'status ' + last.status, last.operation + ' ' + last.status));
        lastCell.appendChild(element('div', 'reason', when(last.started_at)));
      } else {
        lastCell.textContent = '–';
      }
      var queued = cell(row, '');
      table.queued.forEach(function (q) {
        queued.appendChild(element('div', null, q.operation));
        queued.appendChild(element('div', 'reason', q.reason));
      });
      if (table.queued.length === 0) queued.textContent = '–';
      tbody.appendChild(row);
    });
    sparklines.forEach(function (pair) { if (pair[1].length > 0) sparkline(pair[0], pair[1]); });

    var queueBody = document.querySelector('#queue tbody');
    clear(queueBody);
    if (lake.queue.length === 0) emptyRow(queueBody, 7, 'Nothing queued: every table is within its policy.');
    lake.queue.forEach(function (q, index) {
      var row = element('tr');
      cell(row, String(index + 1));
      var link = element('a', null, q.table); link.href = tablePath(q.table); cell(row, '').appendChild(link);
      cell(row, q.operation); cell(row, q.reason, 'reason');
      cell(row, q.benefit_per_cost.toFixed(3), 'num');
      cell(row, seconds(q.predicted_seconds), 'num'); cell(row, bytes(q.predicted_memory_bytes), 'num');
      queueBody.appendChild(row);
    });

    var runsBody = document.querySelector('#runs tbody');
    clear(runsBody);
    if (lake.runs.length === 0) emptyRow(runsBody, 9, 'No runs yet.');
    lake.runs.forEach(function (run) { runRow(runsBody, run, true); });
    document.body.setAttribute('data-ready', 'true');
  }

  function renderTable(detail) {
    document.title = 'LakeOps · ' + detail.table;
    document.getElementById('table-name').textContent = detail.table;
    document.getElementById('updated').textContent = 'as of ' + when(detail.sampled_at);
    var score = document.getElementById('health-score'); score.textContent = '';
    score.appendChild(scoreBadge(detail.health_score));
    document.getElementById('worst-part').textContent = detail.worst_part || 'healthy';
    document.getElementById('data-files').textContent = count(detail.data_files);
    document.getElementById('small-files').textContent = count(detail.small_files);
    document.getElementById('delete-files').textContent = count(detail.delete_files);
    document.getElementById('data-bytes').textContent = bytes(detail.data_bytes);

    lineChart(document.getElementById('health-chart'), detail.health_history);

    var sizes = detail.file_sizes;
    var labels = sizes.bucket_upper_bytes.map(function (upper) { return '≤' + bytes(upper).replace(' ', ''); });
    var series = [{ label: 'now', color: COLORS.now, values: sizes.now }];
    if (sizes.after_last_compaction) {
      series.push({ label: 'after last compaction', color: COLORS.after, values: sizes.after_last_compaction });
    }
    barChart(document.getElementById('sizes-chart'), labels, series, count);
    document.getElementById('sizes-hint').textContent =
      (sizes.target_file_size_bytes ? 'target file size ' + bytes(sizes.target_file_size_bytes) + '. ' : '') +
      (sizes.after_last_compaction ? 'After: the files of the snapshot the last compaction committed.'
        : 'No compaction snapshot to compare with yet.');

    var days = detail.rewritten_bytes_per_day;
    barChart(document.getElementById('rewritten-chart'),
      days.map(function (d) { return d.day.substring(5); }),
      [{ label: 'bytes rewritten', color: COLORS.rewritten, values: days.map(function (d) { return d.bytes; }) }], bytes);

    var policy = document.querySelector('#policy tbody'); clear(policy);
    if (detail.policy.length === 0) emptyRow(policy, 3, 'No policy known.');
    detail.policy.forEach(function (p) {
      var row = element('tr'); cell(row, p.key); cell(row, p.value); cell(row, p.source, 'reason'); policy.appendChild(row);
    });
    var queue = document.querySelector('#queue tbody'); clear(queue);
    if (detail.queued.length === 0) emptyRow(queue, 3, 'Nothing queued.');
    detail.queued.forEach(function (q) {
      var row = element('tr'); cell(row, q.operation); cell(row, q.reason, 'reason');
      cell(row, seconds(q.predicted_seconds), 'num'); queue.appendChild(row);
    });
    var runs = document.querySelector('#runs tbody'); clear(runs);
    if (detail.runs.length === 0) emptyRow(runs, 8, 'No runs yet.');
    detail.runs.forEach(function (run) { runRow(runs, run, false); });
    document.body.setAttribute('data-ready', 'true');
  }

  /* /api/members: the serve processes sharing the store, their tables and health; suspended operations. */
  function renderMembers(doc) {
    var members = document.querySelector('#members tbody');
    if (!members) return;
    clear(members);
    if (doc.members.length === 0) emptyRow(members, 5, 'This daemon shares no store with others.');
    doc.members.forEach(function (member) {
      var row = element('tr');
      row.setAttribute('data-member', member.member_id);
      cell(row, member.member_id + (member.self ? ' (this one)' : ''));
      cell(row, member.host + ' pid ' + member.pid);
      cell(row, when(member.heartbeat_at));
      cell(row, count(member.tables.length), 'num');
      cell(row, member.mean_health_score === null ? '–'
        : member.mean_health_score + ' / ' + member.worst_health_score);
      members.appendChild(row);
    });
    var suspended = document.querySelector('#suspended tbody');
    clear(suspended);
    if (doc.suspended.length === 0) emptyRow(suspended, 5, 'No operation is suspended.');
    doc.suspended.forEach(function (s) {
      var row = element('tr');
      row.setAttribute('data-suspended', s.table + ' ' + s.operation);
      var link = element('a', null, s.table); link.href = tablePath(s.table);
      cell(row, '').appendChild(link);
      cell(row, s.operation);
      cell(row, count(s.failures_in_row), 'num');
      cell(row, when(s.suspended_at));
      cell(row, s.last_error, 'reason');
      suspended.appendChild(row);
    });
  }

  function fetchJson(url) {
    return fetch(url, { cache: 'no-store' }).then(function (response) {
      if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
      return response.json();
    });
  }
  function showError(error) {
    var banner = element('div', 'card', 'Cannot load data: ' + error.message);
    banner.style.borderColor = '#d1333b';
    document.body.insertBefore(banner, document.body.firstChild.nextSibling);
    document.body.setAttribute('data-error', error.message);
  }

  function start() {
    var page = document.body.getAttribute('data-page');
    if (window.LAKEOPS_DATA) {
      var membersSection = document.getElementById('members-section');
      if (membersSection) membersSection.parentNode.removeChild(membersSection);
      (page === 'table' ? renderTable : renderOverview)(window.LAKEOPS_DATA);
      return;
    }
    if (page === 'table') {
      var name = decodeURIComponent(location.pathname.substring('/tables/'.length));
      var loadTable = function () { return fetchJson('/api/tables/' + encodeURIComponent(name)).then(renderTable); };
      loadTable().catch(showError);
      setInterval(function () { loadTable().catch(function () {}); }, REFRESH_MILLIS);
    } else {
      var loadLake = function () {
        fetchJson('/api/members').then(renderMembers).catch(function () {});
        return fetchJson(tablesUrl()).then(renderOverview);
      };
      wireListing(function () { fetchJson(tablesUrl()).then(renderOverview).catch(showError); });
      loadLake().catch(showError);
      setInterval(function () { loadLake().catch(function () {}); }, REFRESH_MILLIS);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
