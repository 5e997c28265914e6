// SPDX-License-Identifier: GPL-2.0
/*
 * The decoder's data, loaded when a page first needs it (no page
 * loads more than it shows).  _static/ioctl-data.js, the small index, sets
 * window.IOCTL_DATA (ABIs, codes, versions, headers); the parts beside it
 * in _static/ioctl-data/ (generator/ioctltools/site_data.py writes them) are
 * "commands" (every command but its numbers) and "abi-<ABI>" (the numbers
 * on one ABI).  IOCTL_DATA.need(parts, done) loads the parts not loaded
 * yet, each once, as scripts (the site works from file:// too), puts them
 * back where the single data file had them (site_data.join() is the same
 * merge), then calls done.  Commands come before any ABI's numbers.
 */
(function () {
	'use strict';

	var D = window.IOCTL_DATA;
	var NAME = 0, HREF = 1, NUMS = 4;
	var have = {}, waiting = {}, base;

	if (!D)
		return;
	base = (document.currentScript && document.currentScript.src ||
		document.querySelector('script[src$="ioctl-load.js"]').src).replace(/[^/]*$/, '') +
		'ioctl-data/';
	D.commands = D.commands || [];

	function slug(name)
	{
		return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
	}

	function merge(name, p)
	{
		if (name === 'commands') {
			D.commands = p.commands.map(function (c) {
				c = c.slice();
				if (typeof c[HREF] === 'number')
					c[HREF] = p.pages[c[HREF]] + '#' + slug(c[NAME]);
				c[NUMS] = [];
				return c;
			});
			if (p.life) {
				D.life = p.life;
				D['by-version'] = p['by-version'].map(function (x) {
					return [x[0], x[1].map(function (v) { return v === null ? null : []; }), x[2]];
				});
			}
			return;
		}
		D.commands.forEach(function (c, k) { c[NUMS][p.abi] = p.numbers[k]; });
		(p['by-version'] || []).forEach(function (per, j) {
			per.forEach(function (n, v) {
				var x = D['by-version'][j][1][v];

				if (x)
					x[p.abi] = n;
			});
		});
	}

	window.IOCTL_DATA_PART = function (name, part) {
		merge(name, part);
		have[name] = true;
	};

	function load(name, done)
	{
		var s;

		if (have[name])
			return done();
		if (waiting[name])
			return waiting[name].push(done);
		waiting[name] = [done];
		s = document.createElement('script');
		s.src = base + name + '.js';
		s.onload = s.onerror = function () {
			var w = waiting[name];

			delete waiting[name];
			w.forEach(function (f) { f(); });
		};
		document.head.appendChild(s);
	}

	D.loaded = function (name) { return !!have[name]; };

	/* parts: "commands" and "abi-<ABI>" names; commands first, the ABIs
	 * side by side after it */
	D.need = function (parts, done) {
		var rest = parts.filter(function (p) { return p !== 'commands'; });

		load('commands', function () {
			var left = rest.length;

			if (!left)
				return done();
			rest.forEach(function (p) {
				load(p, function () {
					if (--left === 0)
						done();
				});
			});
		});
	};
}());
