// SPDX-License-Identifier: GPL-2.0
/*
 * The registry table: filter its rows as you type (code, headers, owner,
 * notes, or the name of a command in the code) and sort by a column.
 * Command names come from window.IOCTL_DATA, generated from the model: its
 * commands part is loaded when the filter is first used (ioctl-load.js).
 * When the registry knows kernel versions (IOCTL_DATA.versions), the
 * version select (#registry-version) keeps the rows (data-versions) and the
 * commands (IOCTL_DATA.life) that exist in the version picked.
 */
(function () {
	'use strict';

	var MAX_LIST = 50;

	function init()
	{
		var table = document.getElementById('registry-table');
		var input = document.getElementById('registry-filter');
		var count = document.getElementById('registry-count');
		var box = document.getElementById('registry-commands');
		var vsel = document.getElementById('registry-version');
		var D = window.IOCTL_DATA || { commands: [], headers: [] };
		var body, rows, text, names = [], life = {}, go = false;

		if (!table || !input)
			return;
		body = table.tBodies[0];
		rows = Array.prototype.slice.call(body.rows);
		text = rows.map(function (r) { return r.textContent.toLowerCase(); });

		/* The command names, loaded once, on the filter's first use; then
		 * the filter again, and the best match if Enter came first. */
		function needNames()
		{
			if (!D.need || D.loaded('commands'))
				return;
			D.need(['commands'], function () {
				names = D.commands.map(function (c) { return c[0].toLowerCase(); });
				/* [index, first, end, words] for the commands not in every version */
				(D.life || []).forEach(function (l) { life[l[0]] = l; });
				apply();
				if (go && box.querySelector('a.ioc-cmd'))
					location.href = box.querySelector('a.ioc-cmd').href;
			});
		}

		/* Is command k in version v (an index of D.versions)? */
		function inVersion(k, v)
		{
			var l = life[k];

			return v < 0 || !l || (v >= l[1] && v < l[2]);
		}

		/* The words of `ioctlgen decode`, as the data carries them:
		 * "6.1 only; removed in 6.12". */
		function lifeTag(k)
		{
			var l = life[k];

			return l ? l[3] : '';
		}

		function esc(s)
		{
			return String(s).replace(/[&<>"]/g, function (ch) {
				return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch];
			});
		}

		function apply()
		{
			var q = input.value.trim().toLowerCase();
			var hits = [], codes = {}, shown = 0, exact = null;
			var ver = vsel ? vsel.value : '';
			var vi = ver && D.versions ? D.versions.indexOf(ver) : -1;

			if (q) {
				names.forEach(function (n, k) {
					if (n.indexOf(q) < 0 || !inVersion(k, vi))
						return;
					hits.push(k);
					codes[D.commands[k][8]] = 1;
					if (n === q)
						exact = k;
				});
			}
			rows.forEach(function (r, i) {
				var on = (!q || text[i].indexOf(q) >= 0 || codes[r.getAttribute('data-code')]) &&
					(!ver || (' ' + r.getAttribute('data-versions') + ' ').indexOf(' ' + ver + ' ') >= 0);

				r.hidden = !on;
				shown += on ? 1 : 0;
			});
			count.textContent = (q || ver ? shown + ' of ' + rows.length + ' rows' : rows.length + ' rows') +
				(q ? ', ' + hits.length + ' command' + (hits.length === 1 ? '' : 's') : '') +
				(ver ? ' in ' + ver : '');
			if (exact !== null) {	/* the exact name first */
				hits.splice(hits.indexOf(exact), 1);
				hits.unshift(exact);
			}
			box.hidden = !hits.length;
			box.innerHTML = hits.length ? '<p>Commands matching <code>' + esc(input.value.trim()) +
				'</code>:</p><ul>' + hits.slice(0, MAX_LIST).map(function (k) {
					var c = D.commands[k], tag = lifeTag(k);

					return '<li><a class="ioc-cmd" href="' + esc(c[1]) + '">' + esc(c[0]) +
						'</a> <code>' + esc(c[2]) + '</code> <small>' +
						esc(D.headers[c[9]]) + '</small>' + (tag ? ' <small class="ioc-versions">[' +
						esc(tag) + ']</small>' : '') + '</li>';
				}).join('') + '</ul>' + (hits.length > MAX_LIST ? '<p>and ' +
				(hits.length - MAX_LIST) + ' more: type more of the name.</p>' : '') : '';
			if (history.replaceState) {
				var qs = (q ? ['q=' + encodeURIComponent(input.value.trim())] : [])
					.concat(ver ? ['v=' + encodeURIComponent(ver)] : []);

				history.replaceState(null, '', qs.length ? '?' + qs.join('&') : location.pathname);
			}
		}

		function sortBy(th, col)
		{
			var num = th.getAttribute('data-sort') === 'num';
			var up = th.getAttribute('aria-sort') !== 'ascending';

			Array.prototype.forEach.call(th.parentNode.cells, function (h) {
				h.removeAttribute('aria-sort');
			});
			th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
			rows.map(function (r, i) {
				var td = r.cells[col];
				var key = num ? Number(td.getAttribute('data-v')) : td.textContent.toLowerCase();

				return { r: r, key: key, i: i };
			}).sort(function (a, b) {
				var d = a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i;

				return up ? d : -d;
			}).forEach(function (x) {
				body.appendChild(x.r);
			});
		}

		Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
			th.tabIndex = 0;
			th.title = 'Sort by this column';
			th.addEventListener('click', function () { sortBy(th, col); });
			th.addEventListener('keydown', function (e) {
				if (e.key === 'Enter')
					sortBy(th, col);
			});
		});
		input.addEventListener('focus', needNames);
		input.addEventListener('input', function () { needNames(); apply(); });
		input.addEventListener('keydown', function (e) {
			var first = box.querySelector('a.ioc-cmd');

			if (e.key !== 'Enter')
				return;
			if (first)	/* go to the best match */
				location.href = first.href;
			else
				go = !D.loaded || !D.loaded('commands');
		});
		input.value = new URLSearchParams(location.search).get('q') || '';
		if (input.value)
			needNames();
		if (vsel) {
			vsel.value = new URLSearchParams(location.search).get('v') || '';
			if (vsel.selectedIndex < 0)	/* a version this registry does not know */
				vsel.value = '';
			vsel.addEventListener('change', apply);
		}
		apply();
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', init);
	else
		init();
}());
