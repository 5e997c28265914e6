// SPDX-License-Identifier: GPL-2.0
/*
 * The site's version pages in headless Chromium, for tests/site/browser.js:
 * history(page, expectations, { base, shots, check }) adds its TAP lines
 * through the caller's check().
 */
'use strict';

const path = require('path');

/* The versions: the registry's Versions column and version select, the
 * New in / Removed in pages (expectations: tests/site/history-expect.py). */
async function history(page, H, { base, shots, check }) {
	const rowKeys = (sel) => page.$$eval(sel, (rs) => rs.map((r) => {
		const m = /#row-(\d+)$/.exec(r.cells[0].querySelector('a').getAttribute('href'));
		return m ? `row-${m[1]}` : `code-${r.getAttribute('data-code')}`;
	}));
	const listed = () => page.$$eval('#registry-commands a.ioc-cmd', (as) =>
		as.map((a) => a.textContent).sort());
	const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

	await check('registry: the Versions column says where each row exists', async () => {
		await page.goto(`${base}/registry.html`);
		const head = await page.$$eval('#registry-table thead th', (ths) =>
			ths.map((t) => t.textContent));
		if (head[head.length - 1] !== 'Versions')
			return `headings ${head}`;
		const got = await page.$$eval('#registry-table tbody tr', (rs) => rs.map((r) => {
			const m = /#row-(\d+)$/.exec(r.cells[0].querySelector('a').getAttribute('href'));
			return [m ? `row-${m[1]}` : `code-${r.getAttribute('data-code')}`,
				r.cells[r.cells.length - 1].textContent];
		}));
		const bad = got.filter(([k, t]) => H.rows[k] !== t);
		if (got.length !== Object.keys(H.rows).length)
			return `${got.length} rows, ${Object.keys(H.rows).length} expected`;
		return bad.length ? bad.slice(0, 5).map(([k, t]) => `${k}: "${t}", not "${H.rows[k]}"`)
			.join('\n') : null;
	});
	await page.screenshot({ path: path.join(shots, 'registry-versions.png'), fullPage: false });
	for (const v of H.versions) {
		await check(`registry: version ${v} shows only the rows of ${v}`, async () => {
			await page.goto(`${base}/registry.html`);
			await page.selectOption('#registry-version', v);
			const got = (await rowKeys('#registry-table tbody tr:not([hidden])')).sort();
			if (!same(got, H.rows_in[v]))
				return `shows ${got.length} rows (${got.slice(0, 8)}), expected ` +
					`${H.rows_in[v].length} (${H.rows_in[v].slice(0, 8)})`;
			const count = await page.locator('#registry-count').textContent();
			return count.endsWith(` in ${v}`) ? null : `count says "${count}"`;
		});
		await check(`registry: "${H.query}" with version ${v} finds only commands of ${v}`,
			async () => {
			await page.fill('#registry-filter', H.query);
			const got = await listed();
			if (!same(got, H.names_in[v]))
				return `lists ${got}, expected ${H.names_in[v]}`;
			return new URL(page.url()).search === `?q=${encodeURIComponent(H.query)}&v=${v}` ?
				null : `URL ${page.url()}`;
		});
	}
	await check(`registry: "${H.query}" in all versions finds them all, saying where each exists`,
		async () => {
		await page.selectOption('#registry-version', '');
		const got = await listed();
		if (!same(got, H.names_all))
			return `lists ${got}, expected ${H.names_all}`;
		for (const [name, tag] of Object.entries(H.tags)) {
			const li = page.locator('#registry-commands li', { hasText: name }).first();
			if (!(await li.count()))
				continue;
			const t = await li.textContent();
			if (t.startsWith(name + ' ') && !t.includes(`[${tag}]`))
				return `${name}: "${t}" without [${tag}]`;
		}
		return null;
	});
	const last = H.versions[H.versions.length - 1];
	await check(`registry: ?q=${H.query}&v=${last} opens filtered to ${last}`, async () => {
		await page.goto(`${base}/registry.html?q=${encodeURIComponent(H.query)}&v=${last}`);
		const v = await page.inputValue('#registry-version');
		const got = await listed();
		const rows = (await rowKeys('#registry-table tbody tr:not([hidden])'));
		if (v !== last || !same(got, H.names_in[last]))
			return `version "${v}", lists ${got}`;
		return rows.every((k) => H.rows_in[last].includes(k)) ? null : `rows ${rows}`;
	});
	await page.screenshot({ path: path.join(shots, 'registry-version-filter.png'), fullPage: false });
	await check('index: the New in / Removed in pages are in the table of contents', async () => {
		await page.goto(`${base}/index.html`);
		const hrefs = await page.$$eval('div.toctree-wrapper a', (as) =>
			as.map((a) => a.getAttribute('href')));
		const miss = H.pages.filter((p) => !hrefs.includes(`${p.doc}.html`));
		return miss.length ? `missing ${miss.map((p) => p.doc)}` : null;
	});
	for (const p of H.pages) {
		const title = `${p.kind === 'new' ? 'New' : 'Removed'} in ${p.version}`;
		await check(`${p.doc}.html: "${title}" lists ${p.rows.length} row(s) and ` +
			`${p.commands.length} command(s), and each link reaches its entry`, async () => {
			await page.goto(`${base}/${p.doc}.html`);
			const h1 = (await page.locator('h1').first().textContent()).replace(/\W+$/, '');
			if (h1 !== title)
				return `title "${h1}"`;
			const rows = (await page.$$eval('table.ioc-history-rows a', (as) =>
				as.map((a) => a.getAttribute('href').replace(/.*#/, '')))).sort();
			const cmds = (await page.$$eval('table.ioc-history-commands a.ioc-cmd', (as) =>
				as.map((a) => a.textContent))).sort();
			if (!same(rows, p.rows) || !same(cmds, p.commands))
				return `rows ${rows}, commands ${cmds}`;
			const body = await page.locator('div.body').textContent();
			const what = p.kind === 'new' ? 'new' : 'removed';
			if (!p.rows.length && !body.includes(`None: no magic-code row is ${what} in ${p.version}.`))
				return 'no "None" for the rows';
			if (!p.commands.length && !body.includes(`None: no command is ${what} in ${p.version}.`))
				return 'no "None" for the commands';
			if (p.commands.length) {
				await page.locator('table.ioc-history-commands a.ioc-cmd').first().click();
				await page.waitForLoadState('load');
				const id = decodeURIComponent(new URL(page.url()).hash.slice(1));
				const entry = (await page.locator(`[id="${id}"]`).first().textContent()).toLowerCase();
				if (!entry.includes(`${what} in ${p.version}`))
					return `the entry at ${page.url()} does not say "${what} in ${p.version}"`;
			}
			return null;
		});
		if (p.kind === 'new')
			await page.screenshot({ path: path.join(shots, `${p.doc}.png`), fullPage: false });
	}
}

module.exports = { history };
