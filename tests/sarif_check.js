// sarif_check.js - checks SARIF logs against the SARIF 2.1.0 JSON schema and
// against what GitHub code scanning needs beyond the schema
//
// usage: node sarif_check.js [--absolute-uris-ok] SCHEMA FILE...
// Prints one line per problem and exits 1 when there is any. The validator
// (ajv with draft-04 support, as the schema is draft-04) comes from the
// packages pinned in tests/node/, found through NODE_PATH.
'use strict';
const fs = require('fs');
const Ajv = require('ajv-draft-04');
const addFormats = require('ajv-formats');

const args = process.argv.slice(2);
const absoluteOk = args[0] === '--absolute-uris-ok';
if (absoluteOk)
	args.shift();
const [schemaPath, ...files] = args;
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
const levels = ['error', 'warning', 'note'];
let problems = 0;

function check(file) {
	const fail = (what) => {
		console.log(`${file}: ${what}`);
		problems++;
	};
	let log;
	try {
		log = JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch (e) {
		return fail(`not JSON: ${e.message}`);
	}
	if (!validate(log)) {
		for (const e of validate.errors)
			fail(`schema: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
		return;
	}
	// What the schema leaves open and GitHub code scanning relies on.
	if (log.$schema !== schema.id)
		fail(`$schema is not the schema's id: ${log.$schema}`);
	if (log.runs.length !== 1)
		return fail(`expected one run, found ${log.runs.length}`);
	const run = log.runs[0];
	const driver = run.tool.driver;
	if (driver.name !== 'jobfix')
		fail(`tool.driver.name is ${driver.name}`);
	if (!/^\d+\.\d+\.\d+/.test(driver.version || '') || driver.semanticVersion !== driver.version)
		fail(`tool.driver version ${driver.version} / semanticVersion ${driver.semanticVersion}`);
	if (!/^https?:\/\//.test(driver.informationUri || ''))
		fail(`tool.driver.informationUri is ${driver.informationUri}`);
	if (run.columnKind !== 'unicodeCodePoints')
		fail(`columnKind is ${run.columnKind}`);
	const inv = run.invocations || [];
	if (inv.length !== 1 || typeof inv[0].executionSuccessful !== 'boolean')
		fail('invocations[0].executionSuccessful is missing');
	else if (!inv[0].executionSuccessful &&
	         !(inv[0].toolExecutionNotifications || []).concat(
	                 inv[0].toolConfigurationNotifications || []).some((n) => n.message && n.message.text))
		fail('a failed invocation without a notification that says why');
	// --statistics: the counts agree with the results.
	const stats = run.properties && run.properties.statistics;
	if (stats) {
		const count = new Map();
		(run.results || []).forEach((res) => count.set(res.ruleId, (count.get(res.ruleId) || 0) + 1));
		if (stats.rules.length !== count.size ||
		    stats.rules.some((r) => count.get(r.rule) !== r.count))
			fail('properties.statistics does not count the results');
	}
	/* The rules the results use, each once. */
	const rules = driver.rules || [];
	const used = new Set((run.results || []).map((res) => res.ruleId));
	if (rules.length !== used.size)
		fail(`tool.driver.rules has ${rules.length} rules, the results use ${used.size}`);
	const ids = new Map();
	rules.forEach((r, i) => {
		const at = `rule ${r.id}`;
		if (ids.has(r.id))
			fail(`${at}: id used twice`);
		ids.set(r.id, i);
		if (!r.name || !r.shortDescription || !r.fullDescription)
			fail(`${at}: name or descriptions missing`);
		if (!r.help || !r.help.text || !r.help.markdown)
			fail(`${at}: help.text or help.markdown missing`);
		// jobfix's own rules link to their page; a rule of a user's rules folder has none.
		if (/^JF\d{3}$/.test(r.id)) {
			if (!/^https?:\/\/.*\/docs\/rules\/JF\d{3}-[a-z0-9-]+\.md$/.test(r.helpUri || ''))
				fail(`${at}: helpUri is ${r.helpUri}`);
		} else if (r.helpUri !== undefined) {
			fail(`${at}: a rule of a user's folder with helpUri ${r.helpUri}`);
		}
		if (!r.defaultConfiguration || !levels.includes(r.defaultConfiguration.level))
			fail(`${at}: defaultConfiguration.level missing`);
		if (!r.properties || !Array.isArray(r.properties.tags) || !r.properties.tags.length)
			fail(`${at}: properties.tags missing`);
	});
	// The config's severities: an override per rule whose results' level is not its default.
	const levelOf = new Map(rules.map((r) => [r.id, r.defaultConfiguration && r.defaultConfiguration.level]));
	((inv[0] && inv[0].ruleConfigurationOverrides) || []).forEach((o) => {
		const d = o.descriptor || {};
		if (!ids.has(d.id) || ids.get(d.id) !== d.index)
			fail(`ruleConfigurationOverrides: descriptor ${d.id} / ${d.index} is not a rule of the run`);
		else if (levelOf.get(d.id) === o.configuration.level)
			fail(`ruleConfigurationOverrides: ${d.id} overridden with its default level`);
		levelOf.set(d.id, o.configuration.level);
	});
	(run.results || []).forEach((res, n) => {
		if (res.level !== levelOf.get(res.ruleId))
			fail(`result ${n} (${res.ruleId}): level ${res.level}, the rule's is ${levelOf.get(res.ruleId)}`);
	});
	const fingerprints = new Set();
	(run.results || []).forEach((res, n) => {
		const at = `result ${n} (${res.ruleId})`;
		if (!ids.has(res.ruleId))
			fail(`${at}: ruleId is not in tool.driver.rules`);
		else if (res.ruleIndex !== ids.get(res.ruleId))
			fail(`${at}: ruleIndex ${res.ruleIndex} is not rule ${res.ruleId}`);
		if (!levels.includes(res.level))
			fail(`${at}: level is ${res.level}`);
		if (!res.message.text)
			fail(`${at}: message.text is empty`);
		if (!res.locations || res.locations.length !== 1)
			return fail(`${at}: expected one location`);
		const locs = [res.locations[0]].concat(res.relatedLocations || []);
		locs.forEach((loc, k) => {
			const where = k ? `${at} related ${k}` : at;
			const phys = loc.physicalLocation;
			if (!phys || !phys.artifactLocation || typeof phys.artifactLocation.uri !== 'string')
				return fail(`${where}: physicalLocation.artifactLocation.uri missing`);
			const uri = phys.artifactLocation.uri;
			const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) || uri.startsWith('/');
			if (absolute && !(absoluteOk && uri.startsWith('file:///')))
				fail(`${where}: uri is not relative: ${uri}`);
			if (phys.artifactLocation.uriBaseId &&
			    !(run.originalUriBaseIds && run.originalUriBaseIds[phys.artifactLocation.uriBaseId]))
				fail(`${where}: uriBaseId without originalUriBaseIds`);
			try {
				decodeURIComponent(uri);
			} catch (e) {
				fail(`${where}: uri does not decode: ${uri}`);
			}
			const r = phys.region;
			if (!r || !(r.startLine >= 1) || !(r.startColumn >= 1))
				return fail(`${where}: region.startLine/startColumn missing`);
			if (r.endLine < r.startLine || (r.endLine === r.startLine && r.endColumn < r.startColumn))
				fail(`${where}: region ends before it starts`);
			if (k && !(loc.message && loc.message.text))
				fail(`${where}: related location without a message`);
			if (k && loc.id !== k)
				fail(`${where}: id is ${loc.id}`);
		});
		const fp = res.partialFingerprints || {};
		const keys = Object.keys(fp);
		if (!keys.length)
			fail(`${at}: no partialFingerprints`);
		if ('primaryLocationLineHash' in fp)
			fail(`${at}: primaryLocationLineHash is GitHub's to compute`);
		for (const k of keys) {
			const key = `${res.ruleId} ${k} ${fp[k]}`;
			if (fingerprints.has(key))
				fail(`${at}: fingerprint ${k} ${fp[k]} used twice`);
			fingerprints.add(key);
		}
	});
}

if (!files.length) {
	console.log('usage: node sarif_check.js [--absolute-uris-ok] SCHEMA FILE...');
	process.exit(2);
}
files.forEach(check);
console.log(`${files.length} SARIF file(s) checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
