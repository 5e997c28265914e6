// SPDX-License-Identifier: GPL-2.0
/*
 * Drive the rendered site in headless Chromium and print TAP lines.
 *
 *   node tests/site/browser.js BASE_URL SHOT_DIR FIRST_TEST_NUMBER EXPECT_FILE SITE_DIR
 *
 * BASE_URL serves SITE_DIR (python3 -m http.server on 127.0.0.1).  The
 * expectations come from tests/site/run, which takes them from the issue
 * and the kernel's <asm/ioctl.h>, not from the site's code.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(path.resolve('build/npm/node_modules/playwright-core'));
const { history } = require('./browser-history.js');

const [base, shots, first, expectFile, siteDir] = process.argv.slice(2);
const expect = JSON.parse(fs.readFileSync(expectFile, 'utf8'));
let n = Number(first) - 1;
let failed = 0;

function tap(ok, text, why) {
	n++;
	console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${text}`);
	if (!ok) {
		failed++;
		if (why)
			console.log(`# ${String(why).split('\n').join('\n# ')}`);
	}
}

/*
 * A page cut into parts (generator/ioctltools/site_parts.py) lists every command with
 * its id: a command's old address on the whole page (magic/0xNN.html#id,
 * plain.html#id) must still land on its entry, now on a part.
 */
async function cutPages(page) {
	const cut = (f) => fs.existsSync(path.join(siteDir, f)) &&
		fs.readFileSync(path.join(siteDir, f), 'utf8').includes('class="ioc-fields ioc-index"');
	const wholes = fs.readdirSync(path.join(siteDir, 'magic')).sort()
		.map((f) => `magic/${f}`).filter(cut).slice(0, 2)
		.concat(['plain.html'].filter(cut));
	for (const whole of wholes) {
		const html = fs.readFileSync(path.join(siteDir, whole), 'utf8');
		const links = [...html.matchAll(/<a class="ioc-cmd" id="([^"]+)" href="([^"#]+)#/g)];
		const [, id, href] = links[links.length - 1];
		const part = path.basename(href);
		await check(`${whole}#${id}, a command's address before the page was cut, ` +
			`lands on its entry on ${part}`, async () => {
			await page.goto(`${base}/${whole}#${id}`);
			await page.waitForURL((u) => u.pathname.endsWith('/' + part), { timeout: 5000 });
			const el = page.locator(`[id="${id}"]`).first();
			await page.screenshot({ path: path.join(shots, 'part.png'), fullPage: false });
			return await el.count() ? null : `no element #${id} on ${page.url()}`;
		});
	}
}

/*
 * "New in 6.12" wrapped each #define every 9 characters.  On the
 * pages that list commands with their spelling in a table (the history
 * pages, the plain numbers), a spelling may wrap between words, never
 * inside one: no more lines than words.
 */
async function spelledWidth(page) {
	const pages = fs.readdirSync(siteDir).filter((f) =>
		/^(new-in-.*|plain(-0x[0-9a-f]+)?)\.html$/.test(f) &&
		/class="ioc-table ioc-(history-commands|plain)"/.test(
			fs.readFileSync(path.join(siteDir, f), 'utf8'))).sort();
	for (const f of [pages.find((f) => f.startsWith('new-in-')),
	                 pages.find((f) => f.startsWith('plain'))].filter(Boolean))
		await check(`${f}: no #define in its table wraps inside a word`, async () => {
			await page.goto(`${base}/${f}`);
			const bad = await page.evaluate(() => {
				for (const el of document.querySelectorAll('table.ioc-history-commands ' +
						'td:nth-child(3) code, table.ioc-plain td:nth-child(2) code')) {
					const t = el.textContent, lines = el.getClientRects().length;
					if (lines > t.trim().split(/\s+/).length)
						return `"${t}" takes ${lines} lines`;
				}
				return null;
			});
			return bad;
		});
}

async function check(text, fn) {
	try {
		const why = await fn();
		tap(!why, text, why);
	} catch (e) {
		tap(false, text, e.stack || e);
	}
}

async function main() {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ioctl-site-chromium-'));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		       '--no-first-run', '--disable-background-networking',
		       '--disable-component-update', '--disable-sync'],
		viewport: { width: 1400, height: 1000 },
	});
	const origin = new URL(base).origin;
	const siteUrl = require('url').pathToFileURL(path.resolve(siteDir)).href;
	const foreign = [], errors = [], dataLoads = [];
	ctx.on('request', (r) => {
		const u = r.url();
		if (!u.startsWith(origin) && !u.startsWith(siteUrl) && !u.startsWith('data:') &&
		    !u.startsWith('about:'))
			foreign.push(u);
		if (/\/_static\/ioctl-data(\.js|\/)/.test(u))
			dataLoads.push(u);
	});
	const page = ctx.pages()[0] || await ctx.newPage();
	page.setDefaultTimeout(10000);
	page.on('pageerror', (e) => errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

	try {
		await run(page, dataLoads);
	} finally {
		await check('no request left 127.0.0.1 (no CDN, no network)', async () =>
			foreign.length ? foreign.join('\n') : null);
		await check('no script error on any page', async () =>
			errors.length ? errors.join('\n') : null);
		await ctx.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

async function decode(page, number, abi) {
	await page.fill('#decode-input', number);
	await page.selectOption('#decode-abi', abi);
	await page.click('#decode-button');
	await page.waitForSelector('#decode-result p');
	return page.locator('#decode-result');
}

/* Paste text into the log form; per line of the result, the names it
 * gave (null: no number read on the line) and the line's own text. */
async function pasteLog(page, text, abi, version) {
	await page.fill('#log-input', text);
	await page.selectOption('#log-abi', abi);
	await page.selectOption('#log-version', version || '');
	await page.click('#log-button');
	await page.waitForSelector('#log-result pre');
	return page.$$eval('#log-result .ioc-logline', (ls) => ls.map((l) => {
		const spans = l.querySelectorAll('.ioc-logname');
		const bare = l.cloneNode(true);

		bare.querySelectorAll('.ioc-logname, .ioc-lognote').forEach((x) => x.remove());
		return {
			names: spans.length ? [...l.querySelectorAll('.ioc-logname a.ioc-cmd')]
				.map((a) => a.textContent).sort() : null,
			text: bare.textContent,
			notes: l.querySelectorAll('.ioc-lognote').length,
		};
	}));
}

/* tests/site/log-expect.py wrote the log and its names from the model. */
async function pastedLog(page, expect) {
	const L = expect.log;

	await check(`decoder: a pasted log of ${L.lines.length} lines (strace -f, _IOC(...), -X verbose, ` +
		`dmesg) names each number on ${L.abi} as the model does`, async () => {
		await page.goto(`${base}/decoder.html`);
		const got = await pasteLog(page, L.lines.map((l) => l.text).join('\n'), L.abi);
		const bad = [];

		if (got.length !== L.lines.length)
			return `${got.length} lines shown for ${L.lines.length}`;
		L.lines.forEach((l, i) => {
			const g = got[i];
			if (g.text !== l.text)
				bad.push(`line ${i + 1} reads "${g.text}", not "${l.text}"`);
			if (JSON.stringify(g.names) !== JSON.stringify(l.names))
				bad.push(`line ${i + 1} "${l.text}": ${JSON.stringify(g.names)}, ` +
					`the model says ${JSON.stringify(l.names)}`);
			if (!!(l.names && l.names.length > 1) !== (g.notes > 0))
				bad.push(`line ${i + 1}: ${g.notes} notes on how ${l.names} differ`);
		});
		await page.screenshot({ path: path.join(shots, 'decoder-log.png'), fullPage: false });
		return bad.length ? bad.join('\n') : null;
	});
	if (expect.log_version)
		await check(`decoder: a log in ${expect.log_version.version} does not name ` +
			`${expect.log_version.all} (not in that version)`, async () => {
			const V = expect.log_version;
			const one = await pasteLog(page, V.text, L.abi, V.version);
			const any = await pasteLog(page, V.text, L.abi, '');
			return JSON.stringify(one[0].names) === JSON.stringify(V.names) &&
				JSON.stringify(any[0].names) === JSON.stringify(V.all) ? null :
				`${V.version}: ${JSON.stringify(one[0].names)}, any: ${JSON.stringify(any[0].names)}`;
		});
}

/* The bytes of the data files requested (their files in the site). */
function dataBytes(urls) {
	return urls.reduce((sum, u) => sum + fs.statSync(path.join(siteDir,
		decodeURIComponent(new URL(u).pathname).slice(new URL(base).pathname.replace(/\/?$/, '/').length)))
		.size, 0);
}

/* Every data file of the site and their bytes. */
function allData() {
	const dir = path.join(siteDir, '_static', 'ioctl-data');
	const files = fs.readdirSync(dir).map((f) => path.join(dir, f));
	files.push(path.join(siteDir, '_static', 'ioctl-data.js'));
	return files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
}

async function run(page, dataLoads) {
	const want = expect.command;	/* BLKGETSIZE64 */

	/* ------------------------------------------------------------ registry */
	let loadsBefore = dataLoads.length;
	await check('registry page loads with its table', async () => {
		await page.goto(`${base}/registry.html`);
		const rows = await page.locator('#registry-table tbody tr').count();
		return rows >= expect.min_rows ? null : `${rows} rows, expected >= ${expect.min_rows}`;
	});
	await check('registry page: before its filter is used it loads the data index only', async () => {
		const got = dataLoads.slice(loadsBefore).map((u) => u.replace(/^.*\/_static\//, ''));
		console.log(`# registry page: ${dataBytes(dataLoads.slice(loadsBefore))} data bytes ` +
			`(${got.join(', ')}) of ${allData()}`);
		return JSON.stringify(got) === JSON.stringify(['ioctl-data.js']) ? null : `loaded ${got}`;
	});
	await page.screenshot({ path: path.join(shots, 'registry.png'), fullPage: false });

	await check('sorting by Commands puts the largest count first', async () => {
		const th = page.locator('#registry-table thead th', { hasText: 'Commands' });
		await th.click();	/* ascending */
		await th.click();	/* descending */
		const vals = await page.$$eval('#registry-table tbody tr', (rs) =>
			rs.map((r) => Number(r.cells[5].getAttribute('data-v'))));
		const sorted = [...vals].sort((a, b) => b - a);
		return JSON.stringify(vals) === JSON.stringify(sorted) ? null : 'rows not sorted';
	});

	await check(`filtering for ${want} lists it and narrows the table to its code`, async () => {
		await page.fill('#registry-filter', want);
		await page.waitForSelector('#registry-commands a.ioc-cmd');
		const first = await page.locator('#registry-commands a.ioc-cmd').first().textContent();
		if (first !== want)
			return `first command listed is ${first}`;
		const codes = await page.$$eval('#registry-table tbody tr:not([hidden])',
			(rs) => rs.map((r) => r.getAttribute('data-code')));
		if (!codes.length || codes.some((c) => Number(c) !== expect.magic))
			return `visible rows have codes ${codes}`;
		return null;
	});
	await page.screenshot({ path: path.join(shots, 'registry-filtered.png'), fullPage: false });

	await check(`clicking ${want} reaches its command entry`, async () => {
		await page.locator('#registry-commands a.ioc-cmd', { hasText: want }).first().click();
		await page.waitForLoadState('load');
		const url = page.url();
		if (!url.includes(expect.page))
			return `landed on ${url}`;
		const hash = decodeURIComponent(new URL(url).hash.slice(1));
		const h = page.locator(`[id="${hash}"] h3, h3[id="${hash}"]`).first();
		const title = (await h.textContent()).replace(/\W+$/, '');
		if (title !== want)
			return `anchor #${hash} holds "${title}"`;
		const body = await page.locator(`[id="${hash}"]`).first().textContent();
		for (const s of expect.entry_text)
			if (!body.includes(s))
				return `entry does not show ${s}`;
		return (await h.isVisible()) ? null : 'heading not visible';
	});
	await page.screenshot({ path: path.join(shots, 'command.png'), fullPage: false });

	await check('Enter in the registry filter goes to the best match', async () => {
		await page.goto(`${base}/registry.html`);
		await page.fill('#registry-filter', want.toLowerCase());
		await page.press('#registry-filter', 'Enter');
		await page.waitForURL(/magic\//);
		return page.url().includes(expect.page) ? null : `went to ${page.url()}`;
	});

	if (expect.plain) {	/* SIOCGIFCONF: #define SIOCGIFCONF 0x8912 in linux/sockios.h */
		await check(`filtering for ${expect.plain} leads to its row on the plain numbers page`,
			async () => {
				await page.goto(`${base}/registry.html`);
				await page.fill('#registry-filter', expect.plain);
				await page.waitForSelector('#registry-commands a.ioc-cmd');
				await page.locator('#registry-commands a.ioc-cmd',
					{ hasText: expect.plain }).first().click();
				await page.waitForLoadState('load');
				const url = new URL(page.url());
				/* the plain numbers page, or one of its parts */
				if (!/\/plain(-0x[0-9a-f]+)?\.html$/.test(url.pathname))
					return `landed on ${url}`;
				const row = await page.locator(`tr[id="${url.hash.slice(1)}"]`).textContent();
				return row.includes('0x00008912') && row.includes(expect.plain) ? null :
					`row: ${row}`;
			});
	}

	/* ------------------------------------------------------------ decoder */
	const one = expect.decode.find((d) => d.abi) || { number: '0x5401', abi: expect.abis_named[0] };
	await check(`decoder: a number on one ABI (${one.abi}) loads the index, the commands and ` +
		'that ABI\'s numbers (and its time64 pair\'s) only', async () => {
		loadsBefore = dataLoads.length;
		await page.goto(`${base}/decoder.html`);
		await decode(page, one.number, one.abi);
		const urls = dataLoads.slice(loadsBefore);
		const got = urls.map((u) => u.replace(/^.*\/_static\//, ''));
		const pair = await page.evaluate((abi) => {
			const A = window.IOCTL_DATA.abis, i = A.findIndex((a) => a.name === abi);
			return A.filter((a, v) => v === i || a['variant-of'] === i || A[i]['variant-of'] === v)
				.map((a) => `ioctl-data/abi-${a.name}.js`);
		}, one.abi);
		const wanted = ['ioctl-data.js', 'ioctl-data/commands.js', ...pair];
		const bytes = dataBytes(urls), all = allData();
		console.log(`# decoder on ${one.abi}: ${bytes} data bytes (${got.join(', ')}) of ${all}`);
		if (JSON.stringify([...got].sort()) !== JSON.stringify([...wanted].sort()))
			return `loaded ${got}, expected ${wanted}`;
		/* the share depends on the registry's shape (the fixtures have two
		 * or three ABIs): the figure is printed, the files are the test */
		return bytes < all ? null : `${bytes} bytes: all the data (${all})`;
	});
	loadsBefore = dataLoads.length;
	await page.goto(`${base}/decoder.html`);
	for (const d of expect.decode) {
		await check(`decoder: ${d.number} on ${d.abi || 'all ABIs'} ${d.names.length ?
			'is ' + d.names.join(', ') : 'has no registered command'}`, async () => {
			const res = await decode(page, d.number, d.abi);
			const text = await res.textContent();
			const rowSel = d.abi ? `tr[data-abi="${d.abi}"]` : 'tbody tr';
			const row = await res.locator(rowSel).first().locator('td').allTextContents();
			const f = d.fields;
			if (f) {
				const got = { dir: row[1], type: row[2].slice(0, 4), nr: row[3].split(' ')[0],
					      size: row[4].split(' ')[0] };
				for (const k of Object.keys(f))
					if (String(got[k]) !== String(f[k]))
						return `${k} is ${got[k]}, expected ${f[k]}`;
			}
			for (const name of d.names)
				if (!row[5].includes(name))
					return `row shows "${row[5]}", not ${name}`;
			for (const t of d.text || [])
				if (!row[5].includes(t))
					return `row shows "${row[5]}", without "${t}"`;
			for (const name of d.not || [])
				if (text.includes(name))
					return `shows ${name}, which does not have this number there`;
			if (!d.names.length && !/no registered command/.test(row[5] + text))
				return `no "no registered command" message: ${text}`;
			if (d.versions) {	/* [name, words of ioctlgen decode] */
				const got = await page.evaluate(([num, abi]) => {
					const r = window.ioctlDecoder.lookup(window.ioctlDecoder.parse(num), abi);
					return r.names.map((n, i) => [n, r.versions[i]]);
				}, [d.number, d.abi]);
				const key = (ps) => JSON.stringify([...ps].sort());
				if (key(got) !== key(d.versions))
					return `versions ${JSON.stringify(got)}, ioctlgen decode says ` +
						JSON.stringify(d.versions);
				const shown = await res.locator(rowSel).first().locator('.ioc-versions')
					.allTextContents();
				const want = d.versions.filter((p) => p[1]).map((p) => `[${p[1]}]`);
				if (key(shown) !== key(want))
					return `the row shows ${JSON.stringify(shown)}, not ${JSON.stringify(want)}`;
			}
			return null;
		});
		if (d.shot)
			await page.screenshot({ path: path.join(shots, d.shot), fullPage: true });
	}
	await check(`decoder: each of ${expect.every.length} (command, ABI) numbers of the model ` +
		'decodes to its own fields and name', async () => {
		await page.evaluate((abis) => window.ioctlDecoder.load(abis),
			[...new Set(expect.every.map((e) => e[1]))]);
		const bad = await page.evaluate((every) => {
			const out = [];
			const dirs = ['none', 'read', 'write', 'read-write'];

			for (const [name, abi, num, dir, type, nr, size, plain] of every) {
				const r = window.ioctlDecoder.lookup(num, abi);
				/* the model gives the size as encoded: sparc's _IOC_SIZE
				 * reads 0 for it when no read or write bit is set; a plain
				 * number's fields are _IOC_DIR (null: none of the four),
				 * _IOC_TYPE, _IOC_NR and _IOC_SIZE as the model split it */
				const got = plain ? [dirs.includes(r.dir) ? r.dir : null, r.type, r.nr, r.size] :
					[r.dir, r.type, r.nr, size === null ? null : r.sizeBits];
				const want = [dir, type, nr, size];
				if (JSON.stringify(got) !== JSON.stringify(want) || !r.names.includes(name))
					out.push(`${name} on ${abi} (0x${num.toString(16)}): decoded ` +
						 `${JSON.stringify(got)} ${r.names}, model says ${JSON.stringify(want)}`);
			}
			return out;
		}, expect.every);
		return bad.length ? `${bad.length} wrong:\n${bad.slice(0, 10).join('\n')}` : null;
	});
	await check('decoder: every ABI gets a row with "all ABIs"', async () => {
		const res = await decode(page, expect.decode[0].number, '');
		const rows = await res.locator('tbody tr').count();
		return rows === expect.abis ? null : `${rows} rows for ${expect.abis} ABIs`;
	});
	await check('decoder: bad input gets a clear message', async () => {
		await page.fill('#decode-input', '0xZZ');
		await page.click('#decode-button');
		const t = await page.locator('#decode-result').textContent();
		return /not a 32-bit number/.test(t) ? null : `got "${t}"`;
	});
	await check('decoder: each data file was loaded at most once for all decodes', async () => {
		const urls = dataLoads.slice(loadsBefore);
		return new Set(urls).size === urls.length ? null :
			`${urls.length} requests for ${new Set(urls).size} files in ` +
			`${expect.decode.length + 2} decodes`;
	});
	if (expect.time64 && expect.abis_named.includes('armhf-time64'))
		await check(`time64 page: ${expect.time64.command} with its numbers on armhf and armhf-time64`,
			async () => {
			await page.goto(`${base}/time64.html`);
			const row = page.locator('table.ioc-time64 tr', { hasText: expect.time64.command }).first();
			if (!await row.count())
				return `no row for ${expect.time64.command}`;
			const t = (await row.textContent()).replace(/\s+/g, ' ');
			const miss = expect.time64.has.filter((s) => !t.includes(s));
			return miss.length ? `row "${t}" lacks ${miss.join(', ')}` : null;
		});

	if (expect.log)
		await pastedLog(page, expect);
	if (expect.free)
		await check(`free codes page: ${expect.free.whole} codes free whole and ` +
			`${expect.free.partly} with free ranges, as ioctlgen free says`, async () => {
			await page.goto(`${base}/free.html`);
			const whole = await page.locator('p.ioc-free-whole code').count();
			const partly = await page.locator('table.ioc-free tbody tr').count();
			await page.screenshot({ path: path.join(shots, 'free.png'), fullPage: false });
			return whole === expect.free.whole && partly === expect.free.partly ? null :
				`${whole} whole, ${partly} in part`;
		});
	if (expect.history)
		await history(page, expect.history, { base, shots, check });
	await cutPages(page);
	await spelledWidth(page);

	/* ------------------------------------------------------------ search */
	await check(`Sphinx search for ${want} finds its page`, async () => {
		await page.goto(`${base}/index.html`);
		await page.fill('input[name="q"]', want);
		await page.press('input[name="q"]', 'Enter');
		await page.waitForURL(/search\.html/);
		const link = page.locator('#search-results ul.search li a').first();
		await link.waitFor({ timeout: 20000 });
		const hrefs = await page.$$eval('#search-results ul.search li a',
			(as) => as.map((a) => a.getAttribute('href')));
		if (!hrefs.some((h) => h.includes(expect.page)))
			return `results: ${hrefs.join(' ')}`;
		await page.locator(`#search-results ul.search li a[href*="${expect.page}"]`).first().click();
		await page.waitForLoadState('load');
		const found = await page.locator('h3', { hasText: want }).count();
		return found ? null : `no ${want} heading on ${page.url()}`;
	});
	await page.screenshot({ path: path.join(shots, 'search.png'), fullPage: false });

	/* ------------------------------------------------------------ no server */
	await check('decoder works from file:// with no server (link from a number)', async () => {
		const file = require('url').pathToFileURL(path.resolve(siteDir, expect.page)).href;
		await page.goto(file);
		await page.locator('table.ioc-numbers a', { hasText: expect.decode[0].number })
			.first().click();
		await page.waitForSelector('#decode-result p');
		const t = await page.locator('#decode-result').textContent();
		if (!page.url().startsWith('file:'))
			return `left file:// for ${page.url()}`;
		return t.includes(expect.command) ? null : `decoded "${t}"`;
	});
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
	tap(false, 'browser session', e.stack || e);
	process.exit(1);
});
