// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl decoder: split a request number into direction, type, nr and
 * size with the encoding layout of each ABI, and list the commands that the
 * registry gives that number.  The layouts and every command's number come
 * from window.IOCTL_DATA (_static/ioctl-data.js, generated from the registry
 * model); the commands and each ABI's numbers are loaded when a number is
 * first decoded on that ABI (ioctl-load.js: IOCTL_DATA.need()), once each.
 *
 * IOCTL_DATA.commands[i] = [name, href, type, nr-count, [number per ABI],
 *                           caller-given size, legacy, reserved, magic,
 *                           index in IOCTL_DATA.headers, alias-of name or null,
 *                           or [alias-of per ABI] where it differs per ABI]
 * magic is null for a command its header spells as a plain number
 * (TCGETS 0x5401) or as another's name (SIOCINQ FIONREAD): it matches its
 * number exactly, like any other.
 *
 * When the registry knows kernel versions, IOCTL_DATA.versions are their
 * names, oldest first, and IOCTL_DATA.life = [[command index, first, end,
 * words]] for the commands not in every version: the index of the first
 * version it is in and of the first it is no longer in (versions.length:
 * still there), and ioctlgen's words for it, which a matching command
 * shows as `ioctlgen decode` does: "[6.1 only; removed in 6.12]", "[new
 * in 6.12]".  IOCTL_DATA["by-version"]
 * = [[command index, [per version: [number per ABI] or null], words]] for
 * the commands whose numbers differ between versions: the decoder finds
 * them by any, and says where the number holds in ioctlgen's words,
 * words[ABI index][number] ("6.1 only; 0xc02864c3 in 6.12": `ioctlgen
 * table --dump`'s number-words, describe_number_versions()).
 */
(function () {
	'use strict';

	var D = window.IOCTL_DATA;
	var NAME = 0, HREF = 1, TYPE = 2, COUNT = 3, NUMS = 4, FREE = 5, LEGACY = 6,
	    RESERVED = 7, MAGIC = 8, HEADER = 9, ALIAS = 10;
	var exact = [];		/* per ABI: number -> [command index] */
	var ranged = [];	/* per ABI: [{k: index, f: fields}] for families */
	var life = null;	/* command index -> [index, first, end] */
	var byver = null;	/* command index -> its by-version entry */

	function byVersionEntry(k)
	{
		if (!byver) {
			byver = {};
			(D['by-version'] || []).forEach(function (x) { byver[x[0]] = x; });
		}
		return byver[k];
	}

	function byVersion(k)
	{
		var x = byVersionEntry(k);

		return x && x[1];
	}

	function field(n, shift, bits)
	{
		return (n >>> shift) & ((1 << bits) - 1);
	}

	/* The kernel's _IOC_DIR/_IOC_TYPE/_IOC_NR/_IOC_SIZE for layout L. */
	function fields(n, L)
	{
		var rw = L.read | L.write;
		var dir = field(n, L['dir-shift'], L['dir-bits']);
		var size = field(n, L['size-shift'], L['size-bits']);
		var bits = size;	/* what the size field holds */

		if (L['xsize-bits']) {
			/* sparc: the size overlaps _IOC_NONE; read only with r/w */
			if (dir & rw) {
				dir &= rw;
				bits = size = field(n, L['size-shift'], L['xsize-bits']);
			} else {
				size = 0;
			}
		}
		return {
			dir: dir,
			type: field(n, L['type-shift'], L['type-bits']),
			nr: field(n, L['nr-shift'], L['nr-bits']),
			size: size,
			sizeBits: bits
		};
	}

	function dirName(dir, L)
	{
		if (dir === L.none)
			return 'none';
		if (dir === L.read)
			return 'read';
		if (dir === L.write)
			return 'write';
		if (dir === (L.read | L.write))
			return 'read-write';
		if (dir === 0)
			return 'no direction bits (an old-style number)';
		return 'invalid direction ' + dir;
	}

	function buildIndex(i)
	{
		var L = D.abis[i], map = new Map(), fam = [];

		D.commands.forEach(function (c, k) {
			var n = c[NUMS][i];

			if (n === null)
				return;
			if (c[COUNT] > 1 || c[FREE]) {
				fam.push({ k: k, f: fields(n, L) });
				return;
			}
			if (!map.has(n))
				map.set(n, []);
			map.get(n).push(k);
		});
		/* an older version's other number finds the command too */
		(D['by-version'] || []).forEach(function (x) {
			var k = x[0], seen = {};

			if (D.commands[k][COUNT] > 1 || D.commands[k][FREE])
				return;
			x[1].forEach(function (nums) {
				var n = nums && nums[i];

				if (n === null || n === undefined || n === D.commands[k][NUMS][i] || seen[n])
					return;
				seen[n] = 1;
				if (!map.has(n))
					map.set(n, []);
				map.get(n).push(k);
			});
		});
		exact[i] = map;
		ranged[i] = fam;
	}

	function matches(n, i, f)
	{
		var out, c;

		if (!exact[i])
			buildIndex(i);
		out = (exact[i].get(n) || []).slice();
		ranged[i].forEach(function (r) {
			c = D.commands[r.k];
			if (r.f.dir === f.dir && r.f.type === f.type &&
			    f.nr >= r.f.nr && f.nr < r.f.nr + c[COUNT] &&
			    (c[FREE] || r.f.size === f.size))
				out.push(r.k);
		});
		return out;
	}

	/* "0x80081272", "80081272h"-free: hex with 0x, decimal, negative int. */
	function parse(text)
	{
		var t = text.trim().replace(/[uUlL]+$/, '');
		var n;

		if (/^0x[0-9a-f]{1,8}$/i.test(t))
			n = parseInt(t.slice(2), 16);
		else if (/^-?[0-9]{1,10}$/.test(t))
			n = parseInt(t, 10);
		else
			return null;
		if (n < 0 && n >= -0x80000000)
			n += 0x100000000;
		if (n < 0 || n > 0xffffffff)
			return null;
		return n;
	}

	function hex(n, width)
	{
		var s = n.toString(16);

		while (s.length < width)
			s = '0' + s;
		return '0x' + s;
	}

	function esc(s)
	{
		return String(s).replace(/[&<>"]/g, function (ch) {
			return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch];
		});
	}

	function typeCell(t)
	{
		var code = D.codes[t];
		var ch = t >= 0x21 && t < 0x7f ? " '" + String.fromCharCode(t) + "'" : '';
		var s = '<code>' + hex(t, 2) + '</code>' + esc(ch);

		if (code)
			s += ' <a href="' + esc(code[1]) + '">' + esc(code[2] || 'registered') + '</a>';
		else
			s += ' <span class="ioc-differs">unregistered code</span>';
		return s;
	}

	/* A time64 variant and its base ABI that give the command different
	 * numbers: say so on both, the usual reason a 32-bit number is not found. */
	function variantNote(c, i)
	{
		var notes = [];

		D.abis.forEach(function (O, v) {
			var n = c[NUMS][v];

			if (v === i || !(O['variant-of'] === i || D.abis[i]['variant-of'] === v))
				return;
			if (n === null)
				notes.push('not on ' + esc(O.name));
			else if (n !== c[NUMS][i])
				notes.push('<code>' + hex(n, 8) + '</code> on ' + esc(O.name));
		});
		return notes.length ? ' <span class="ioc-differs ioc-variant">(' + notes.join('; ') +
			', <a href="time64.html">64-bit time_t</a>)</span>' : '';
	}

	/* Where command k exists among the known versions, in the words of
	 * `ioctlgen decode`; '' for a command in every one. */
	function lifeOf(k)
	{
		if (!life) {
			life = {};
			(D.life || []).forEach(function (x) { life[x[0]] = x; });
		}
		return life[k];
	}

	function lifeTag(k)
	{
		var l = lifeOf(k);

		return l ? l[3] : '';
	}

	/* lifeTag(), or ioctlgen's words for where command k carries number n
	 * on ABI i in only some of its versions (its struct grew, the ABI lacks
	 * it in one): "6.1 only; 0xc02864c3 in 6.12". */
	function numberTag(k, n, i)
	{
		var x = byVersionEntry(k), w = x && x[2] && x[2][i];

		return w && w[n] !== undefined ? w[n] : lifeTag(k);
	}

	function cmdCell(ks, i, n)
	{
		if (!ks.length)
			return '<span class="ioc-nomatch">no registered command</span>';
		return ks.map(function (k) {
			var c = D.commands[k];
			var s = '<a class="ioc-cmd" href="' + esc(c[HREF]) + '">' + esc(c[NAME]) + '</a>';
			var alias = Array.isArray(c[ALIAS]) ? c[ALIAS][i] : c[ALIAS];
			var tag = numberTag(k, n, i);

			if (c[TYPE])
				s += ' <code>' + esc(c[TYPE]) + '</code>';
			s += ' <small>' + esc(D.headers[c[HEADER]]) + '</small>';
			if (c[LEGACY])
				s += ' <a href="legacy.html" class="ioc-badge">legacy</a>';
			if (c[RESERVED])
				s += ' <span class="ioc-badge">reserved</span>';
			if (c[MAGIC] === null && !alias)
				s += ' <a href="plain.html" class="ioc-badge">plain number</a>';
			if (alias)
				s += ' <span class="ioc-badge ioc-alias">alias of ' + esc(alias) + '</span>';
			if (tag)
				s += ' <span class="ioc-versions">[' + esc(tag) + ']</span>';
			return s + variantNote(c, i);
		}).join('<br>');
	}

	function show(text, abi)
	{
		var out = document.getElementById('decode-result');
		var n = parse(text);
		var rows = [], names = {}, found = 0, list;

		if (n === null) {
			out.innerHTML = text.trim() ? '<p class="ioc-error">' + esc(text.trim()) +
				' is not a 32-bit number: write it in hexadecimal (0x80081272) or decimal.</p>' : '';
			return;
		}
		D.abis.forEach(function (L, i) {
			var f, ks;

			if (abi && L.name !== abi)
				return;
			f = fields(n, L);
			ks = matches(n, i, f);
			found += ks.length;
			ks.forEach(function (k) { names[D.commands[k][NAME]] = 1; });
			rows.push('<tr data-abi="' + esc(L.name) + '"><td>' + esc(L.name) + '<br><small>' +
				esc(L.layout) + '</small></td><td>' + esc(dirName(f.dir, L)) +
				'</td><td>' + typeCell(f.type) + '</td><td>' + f.nr + ' <small>(' + hex(f.nr, 2) +
				')</small></td><td>' + f.size + (f.sizeBits !== f.size ?
				' <small>(the size bits hold ' + f.sizeBits + ', but _IOC_SIZE reads 0 ' +
				'without a read or write bit)</small>' : '') + '</td><td>' + cmdCell(ks, i, n) +
				'</td></tr>');
		});
		list = Object.keys(names);
		out.innerHTML = '<p class="ioc-summary"><code>' + hex(n, 8) + '</code> = ' + n + ': ' +
			(found ? 'registered as <strong>' + list.map(esc).join(', ') + '</strong>' :
			 '<strong class="ioc-nomatch">no registered command</strong> has this number on ' +
			 (abi ? esc(abi) : 'any ABI')) + '.</p>' +
			'<table class="ioc-table ioc-decoded"><thead><tr><th>ABI</th><th>Direction</th>' +
			'<th>Type (magic)</th><th>nr</th><th>Size</th><th>Command</th></tr></thead><tbody>' +
			rows.join('') + '</tbody></table>';
	}

	/* The data parts an answer on ABI abi ('' or undefined: every ABI)
	 * needs: its numbers and its time64 variant's or base's (variantNote). */
	function partsFor(abi)
	{
		var i = D.abis.findIndex(function (L) { return L.name === abi; });

		return D.abis.filter(function (O, v) {
			return i < 0 || v === i || O['variant-of'] === i || D.abis[i]['variant-of'] === v;
		}).map(function (O) { return 'abi-' + O.name; });
	}

	function init()
	{
		var form = document.getElementById('decode-form');
		var input = document.getElementById('decode-input');
		var select = document.getElementById('decode-abi');
		var m = /^#(.+?)(?::(.+))?$/.exec(decodeURIComponent(location.hash));

		if (!form || !D)
			return;
		function run() {
			var text = input.value, abi = select.value;

			if (parse(text) === null)
				return show(text, abi);
			/* no answer shown until this one's data is there */
			document.getElementById('decode-result').innerHTML = '';
			D.need(partsFor(abi), function () { show(text, abi); });
			history.replaceState(null, '', '#' + text.trim() + (abi ? ':' + abi : ''));
		}
		form.addEventListener('submit', function (e) { e.preventDefault(); run(); });
		select.addEventListener('change', run);
		if (m) {
			input.value = m[1];
			if (m[2])
				select.value = m[2];
			run();
		}
	}

	/* ------------------------------------------------------------ logs */

	/* Does command k carry n on ABI i in version v (-1: in any)?  A
	 * family's members by its lifetime, the others by their numbers. */
	function carries(k, n, i, v)
	{
		var c = D.commands[k], per = byVersion(k), l = lifeOf(k);

		if (v < 0)
			return true;
		if (per && !(c[COUNT] > 1 || c[FREE]))
			return !!per[v] && per[v][i] === n;
		return !l || (v >= l[1] && v < l[2]);
	}

	/* The grammar of docs/dev/log-grammar.md (ioctlgen annotate reads the
	 * same): strace's ioctl(FD, REQUEST, ...) with REQUEST a hex number or
	 * _IOC(DIR, TYPE, NR, SIZE), after any prefix ([pid N], timestamps);
	 * on other lines that say "ioctl", every 0x number of 1 to 8 digits. */
	var STRACE = /(^|[^A-Za-z0-9_])ioctl\((-?\d+|0x[0-9a-fA-F]+)(?:<.*?>)?, (?:(0x[0-9a-fA-F]{1,8})(?![0-9A-Za-z_])|_IOC\(([^,()]+), ([^,()]+), ([^,()]+), ([^,()]+)\))( \/\*.*?\*\/)?/;
	var HEX = /(^|[^0-9A-Za-z_])(0x[0-9a-fA-F]{1,8})(?![0-9A-Za-z_])/g;

	function cnum(t)
	{
		return /^0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : /^[0-9]+$/.test(t) ? parseInt(t, 10) : NaN;
	}

	/* _IOC(dir, type, nr, size) as layout L makes it; NaN when it cannot. */
	function iocNumber(d, t, nr, size, L)
	{
		var dir = 0, v = [cnum(t), cnum(nr), cnum(size)];
		var ok = d.split('|').every(function (w) {
			w = w.trim();
			if (w === '_IOC_NONE')
				dir |= L.none;
			else if (w === '_IOC_READ')
				dir |= L.read;
			else if (w === '_IOC_WRITE')
				dir |= L.write;
			else
				return !isNaN(cnum(w)) && ((dir |= cnum(w)), true);
			return true;
		});

		if (!ok || isNaN(v[0] + v[1] + v[2]) || v[0] >> L['type-bits'] || v[1] >> L['nr-bits'] ||
		    v[2] >> L['size-bits'] || dir >> L['dir-bits'])
			return NaN;
		return ((dir << L['dir-shift']) | (v[2] << L['size-shift']) | (v[0] << L['type-shift']) |
			(v[1] << L['nr-shift'])) >>> 0;
	}

	/* The request numbers of one line: [{at: end of the token, n}]. */
	function lineNumbers(line, L)
	{
		var m = STRACE.exec(line), out = [], at;

		if (m) {
			at = m.index + m[0].length;
			return [{ at: at, n: m[3] ? parseInt(m[3], 16) : iocNumber(m[4], m[5], m[6], m[7], L),
				  text: m[3] || '_IOC(...)' }];
		}
		/* strace named the request, cut the call, or resumes it: no number */
		if (!/ioctl/i.test(line) || /(^|[^A-Za-z0-9_])ioctl\(|<\.\.\. ioctl resumed>/.test(line))
			return out;
		HEX.lastIndex = 0;
		while ((m = HEX.exec(line)))
			out.push({ at: m.index + m[0].length, n: parseInt(m[2], 16), text: m[2] });
		return out;
	}

	/* Commands with n's direction, code and nr but another size. */
	function nearby(f, i)
	{
		var L = D.abis[i], out = [];

		D.commands.forEach(function (c, k) {
			var g = c[NUMS][i] === null ? null : fields(c[NUMS][i], L);

			if (g && g.dir === f.dir && g.type === f.type && g.nr === f.nr)
				out.push(k);
		});
		return out;
	}

	/* One number of a log line named: [inline comment, detail or ''] */
	function nameNumber(x, i, v)
	{
		var L = D.abis[i], f = fields(x.n, L), ks, near;

		if (isNaN(x.n))
			return [' /* ? not a number on ' + esc(L.layout) + ' */', ''];
		ks = matches(x.n, i, f).filter(function (k) { return carries(k, x.n, i, v); });
		if (ks.length)	/* strace's _IOC(...) spelling: the number too */
			return [' /* ' + (x.text[0] === '_' ? hex(x.n, 8) + ' = ' : '') + ks.map(function (k) {
				return '<a class="ioc-cmd" href="' + esc(D.commands[k][HREF]) + '">' +
					esc(D.commands[k][NAME]) + '</a>';
			}).join(' or ') + ' */', ks.length > 1 ? '<code>' + hex(x.n, 8) + '</code>: ' +
				cmdCell(ks, i, x.n).split('<br>').join(' <b>or</b> ') : ''];
		near = nearby(f, i);
		return [' /* ? ' + (near.length ? 'not ' + near.map(function (k) {
			return esc(D.commands[k][NAME]) + ' (size ' + fields(D.commands[k][NUMS][i], L).size + ')';
		}).join(', ') + ': size ' + f.size : 'no registered command') + ' */', ''];
	}

	function showLog(text, abi, version)
	{
		var i = Math.max(0, D.abis.findIndex(function (L) { return L.name === abi; }));
		var v = (D.versions || []).indexOf(version), named = 0;
		var html = text.replace(/\r/g, '').split('\n').map(function (line) {
			var out = '', from = 0, notes = [];

			lineNumbers(line, D.abis[i]).forEach(function (x) {
				var w = nameNumber(x, i, v);

				out += esc(line.slice(from, x.at)) + '<span class="ioc-logname">' + w[0] + '</span>';
				from = x.at;
				named++;
				if (w[1])
					notes.push('<div class="ioc-lognote">' + w[1] + '</div>');
			});
			return '<div class="ioc-logline">' + out + esc(line.slice(from)) + notes.join('') + '</div>';
		});

		document.getElementById('log-result').innerHTML = '<p class="ioc-summary">' + named +
			' request number' + (named === 1 ? '' : 's') + ' on ' + esc(D.abis[i].name) +
			(v >= 0 ? ' in ' + esc(version) : '') + '</p><pre class="ioc-log">' + html.join('') + '</pre>';
	}

	function initLog()
	{
		var form = document.getElementById('log-form');

		if (!form)
			return;
		form.addEventListener('submit', function (e) {
			var text = document.getElementById('log-input').value;
			var abi = document.getElementById('log-abi').value;
			var version = document.getElementById('log-version').value;

			e.preventDefault();
			document.getElementById('log-result').innerHTML = '';
			D.need(partsFor(abi), function () { showLog(text, abi, version); });
		});
	}

	/* For tests and the console: the fields and command names of n on an
	 * ABI whose data is loaded (load()); null for an ABI not loaded. */
	function lookup(n, abi)
	{
		var i = D.abis.findIndex(function (L) { return L.name === abi; });
		var L = D.abis[i], f;

		if (i < 0 || !D.loaded('abi-' + abi))
			return null;
		f = fields(n, L);
		return {
			dir: dirName(f.dir, L), type: f.type, nr: f.nr, size: f.size,
			sizeBits: f.sizeBits,
			names: matches(n, i, f).map(function (k) { return D.commands[k][NAME]; }),
			versions: matches(n, i, f).map(function (k) { return numberTag(k, n, i); })
		};
	}

	/* A promise of the data of the ABIs named (all of them: none named). */
	function load(abis)
	{
		var parts = [].concat.apply([], (abis && abis.length ? abis : ['']).map(partsFor));

		return new Promise(function (done) { D.need(parts, done); });
	}

	window.ioctlDecoder = { parse: parse, lookup: lookup, load: load };
	if (document.readyState === 'loading') {
		document.addEventListener('DOMContentLoaded', init);
		document.addEventListener('DOMContentLoaded', initLog);
	} else {
		init();
		initLog();
	}
}());
