/**
 * The manifest and the build. `office-addin-manifest validate` needs Microsoft's service, so its
 * schema checks are reproduced here: well-formed XML, the elements the add-in schema requires in
 * its order, SharedRuntime 1.1 and CustomFunctionsRuntime 1.2, the long-lived shared runtime, https
 * URLs that the build really serves, unique ids, every resid defined, string lengths, icon sizes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCustomFunctionsMetadata } from 'custom-functions-metadata';
import { OfficeAddinManifest } from 'office-addin-manifest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import build, { addinOrigin } from '../../excel-addin/build.mjs';
import { projectRoot } from '../../server/data/paths.js';

// office-addin-manifest parses manifests with xml2js (strict): the same parser, with element order kept.
const xml2js = createRequire(createRequire(import.meta.url).resolve('office-addin-manifest'))('xml2js');

interface Node {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: Node[];
}

async function parseXml(text: string): Promise<Node> {
  const raw = await xml2js.parseStringPromise(text, { explicitChildren: true, preserveChildrenOrder: true, strict: true });
  const convert = (n: any, name: string): Node => ({
    name,
    attrs: n.$ ?? {},
    text: typeof n._ === 'string' ? n._.trim() : '',
    children: (n.$$ ?? []).map((c: any) => convert(c, c['#name'])),
  });
  const [rootName] = Object.keys(raw);
  return convert(raw[rootName], rootName);
}

const all = (n: Node): Node[] => [n, ...n.children.flatMap(all)];
const child = (n: Node, name: string): Node => {
  const c = n.children.find((x) => x.name === name);
  if (!c) throw new Error(`<${n.name}> has no <${name}>`);
  return c;
};
const path = (n: Node, ...names: string[]): Node => names.reduce(child, n);

const ORIGIN = 'https://landed.example.com';
let out: string;
let manifestText: string;
let m: Node;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'landed-excel-build-'));
  await build(projectRoot, { outDir: join(out, 'excel'), env: { ADDIN_BASE_URL: `${ORIGIN}/` } });
  manifestText = readFileSync(join(projectRoot, 'manifest.xml'), 'utf8');
  m = await parseXml(manifestText);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('manifest.xml', () => {
  it('is well-formed, and office-addin-manifest reads it', async () => {
    await expect(parseXml(manifestText.replace('</Hosts>', ''))).rejects.toThrow(); // the parser is strict
    const info = await OfficeAddinManifest.readManifestFile(join(projectRoot, 'manifest.xml'));
    expect(info.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(info.hosts).toEqual(['Workbook']);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(info.defaultSettings?.sourceLocation).toBe('https://localhost:8443/excel/taskpane.html');
    expect(info.permissions).toBe('ReadWriteDocument');
  });

  it('is a task pane app with the required elements in the schema order', () => {
    expect(m.name).toBe('OfficeApp');
    expect(m.attrs.xmlns).toBe('http://schemas.microsoft.com/office/appforoffice/1.1');
    expect(m.attrs['xsi:type']).toBe('TaskPaneApp');
    const order = ['Id', 'Version', 'ProviderName', 'DefaultLocale', 'DisplayName', 'Description', 'IconUrl', 'HighResolutionIconUrl', 'SupportUrl', 'AppDomains', 'Hosts', 'Requirements', 'DefaultSettings', 'Permissions', 'VersionOverrides'];
    expect(m.children.map((c) => c.name)).toEqual(order);
    expect(child(m, 'DisplayName').attrs.DefaultValue.length).toBeLessThanOrEqual(125);
    expect(child(m, 'Description').attrs.DefaultValue.length).toBeLessThanOrEqual(250);
    expect(child(m, 'DefaultLocale').text).toBe('en-US');
  });

  it('requires SharedRuntime 1.1 and CustomFunctionsRuntime 1.2 (the error objects with a message the functions throw)', () => {
    expect(path(m, 'Hosts').children.map((h) => h.attrs.Name)).toEqual(['Workbook']);
    const sets = path(m, 'Requirements', 'Sets').children.map((s) => [s.attrs.Name, s.attrs.MinVersion]);
    expect(sets).toEqual([['SharedRuntime', '1.1'], ['CustomFunctionsRuntime', '1.2']]);
  });

  it('links support and "learn more" to the help page the build writes, not to an invented site', () => {
    expect(child(m, 'SupportUrl').attrs.DefaultValue).toBe('https://localhost:8443/excel/help.html');
    const urls = path(m, 'VersionOverrides', 'Resources', 'bt:Urls').children;
    expect(urls.find((u) => u.attrs.id === 'GetStarted.LearnMoreUrl')!.attrs.DefaultValue).toBe('https://localhost:8443/excel/help.html');
  });

  it('runs custom functions and task pane in one long-lived runtime', () => {
    const vo = child(m, 'VersionOverrides');
    expect(vo.attrs.xmlns).toBe('http://schemas.microsoft.com/office/taskpaneappversionoverrides');
    expect(vo.attrs['xsi:type']).toBe('VersionOverridesV1_0');
    const host = path(vo, 'Hosts', 'Host');
    expect(host.attrs['xsi:type']).toBe('Workbook');
    expect(host.children.map((c) => c.name)).toEqual(['Runtimes', 'AllFormFactors', 'DesktopFormFactor']);
    const runtimes = child(host, 'Runtimes').children;
    expect(runtimes).toHaveLength(1);
    expect(runtimes[0].attrs).toEqual({ resid: 'Taskpane.Url', lifetime: 'long' });

    const cf = path(host, 'AllFormFactors', 'ExtensionPoint');
    expect(cf.attrs['xsi:type']).toBe('CustomFunctions');
    expect(cf.children.map((c) => c.name)).toEqual(['Script', 'Page', 'Metadata', 'Namespace']);
    // The functions' page is the runtime's page: that is what makes the runtime shared.
    expect(path(cf, 'Page', 'SourceLocation').attrs.resid).toBe(runtimes[0].attrs.resid);
    expect(path(cf, 'Script', 'SourceLocation').attrs.resid).toBe('Functions.Script.Url');
    expect(path(cf, 'Metadata', 'SourceLocation').attrs.resid).toBe('Functions.Metadata.Url');
    expect(child(cf, 'Namespace').attrs.resid).toBe('Functions.Namespace');
    expect(resource('ShortStrings', 'Functions.Namespace')).toBe('TARIFF');
  });

  it('puts a button on the Home tab that opens the task pane in the shared runtime', () => {
    const desktop = path(m, 'VersionOverrides', 'Hosts', 'Host', 'DesktopFormFactor');
    expect(child(desktop, 'FunctionFile').attrs.resid).toBe('Taskpane.Url');
    const surface = desktop.children.find((c) => c.name === 'ExtensionPoint')!;
    expect(surface.attrs['xsi:type']).toBe('PrimaryCommandSurface');
    const tab = child(surface, 'OfficeTab');
    expect(tab.attrs.id).toBe('TabHome');
    const button = path(tab, 'Group', 'Control');
    expect(button.attrs['xsi:type']).toBe('Button');
    const action = child(button, 'Action');
    expect(action.attrs['xsi:type']).toBe('ShowTaskpane');
    expect(child(action, 'SourceLocation').attrs.resid).toBe('Taskpane.Url');
    expect(resource('ShortStrings', child(button, 'Label').attrs.resid)).toBe('Cost order');
    expect(child(button, 'Icon').children.map((i) => i.attrs.size)).toEqual(['16', '32', '80']);
  });

  it('defines every resid once, within the schema limits', () => {
    const resources = path(m, 'VersionOverrides', 'Resources');
    const defined = resources.children.flatMap((group) => group.children.map((r) => ({ group: group.name, id: r.attrs.id, value: r.attrs.DefaultValue })));
    const ids = defined.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of defined) {
      expect(d.id.length, d.id).toBeLessThanOrEqual(32);
      expect(d.value, d.id).toBeTruthy();
      if (d.group === 'bt:ShortStrings') expect(d.value.length, d.id).toBeLessThanOrEqual(125);
      if (d.group === 'bt:LongStrings') expect(d.value.length, d.id).toBeLessThanOrEqual(250);
    }
    const used = all(m).flatMap((n) => (n.attrs.resid ? [n.attrs.resid] : []));
    expect(used.length).toBeGreaterThan(15);
    expect(used.filter((r) => !ids.includes(r))).toEqual([]);
    // Images are images and URLs are URLs.
    for (const n of all(m).filter((x) => x.name === 'bt:Image' && x.attrs.resid)) expect(resources.children.find((g) => g.name === 'bt:Images')!.children.map((i) => i.attrs.id)).toContain(n.attrs.resid);
    const controlIds = all(m).filter((n) => ['Group', 'Control'].includes(n.name)).map((n) => n.attrs.id);
    expect(new Set(controlIds).size).toBe(controlIds.length);
  });

  it('uses https URLs of the one origin, each of a file the build emits', () => {
    const urls = all(m).flatMap((n) => Object.values(n.attrs).concat(n.text)).filter((v) => /^\w+:\/\//.test(v) && !v.includes('schemas.microsoft.com') && !v.includes('www.w3.org'));
    expect(urls.length).toBeGreaterThan(10);
    for (const u of urls) {
      expect(u).toMatch(/^https:\/\/localhost:8443(\/|$)/);
      const p = new URL(u).pathname;
      if (p !== '/') expect(existsSync(join(out, p)), `${u} is built`).toBe(true);
    }
    expect(path(m, 'AppDomains', 'AppDomain').text).toBe('https://localhost:8443');
  });

  function resource(group: string, id: string): string {
    const g = path(m, 'VersionOverrides', 'Resources', `bt:${group}`);
    const r = g.children.find((c) => c.attrs.id === id);
    if (!r) throw new Error(`no ${group} ${id}`);
    return r.attrs.DefaultValue;
  }
});

describe('the build (dist/excel)', () => {
  it('writes the manifest with ADDIN_BASE_URL as its origin', async () => {
    const built = readFileSync(join(out, 'excel', 'manifest.xml'), 'utf8');
    expect(built).not.toContain('localhost');
    expect(built.match(/https:\/\/landed\.example\.com/g)!.length).toBe(manifestText.match(/https:\/\/localhost:8443/g)!.length);
    const info = await OfficeAddinManifest.readManifestFile(join(out, 'excel', 'manifest.xml'));
    expect(info.defaultSettings?.sourceLocation).toBe(`${ORIGIN}/excel/taskpane.html`);
    expect(() => addinOrigin('http://landed.example.com')).toThrow(/must use https/);
    // A later plain build (npm start) into the same folder keeps the deployment's address.
    await build(projectRoot, { outDir: join(out, 'excel'), env: {} });
    expect(readFileSync(join(out, 'excel', 'manifest.xml'), 'utf8')).not.toContain('localhost');
    await build(projectRoot, { outDir: join(out, 'excel'), env: { ADDIN_BASE_URL: 'https://localhost:8443' } });
    expect(readFileSync(join(out, 'excel', 'manifest.xml'), 'utf8')).not.toContain('landed.example.com');
    await build(projectRoot, { outDir: join(out, 'excel'), env: { ADDIN_BASE_URL: `${ORIGIN}/` } });
    expect(() => addinOrigin('https://landed.example.com/app')).toThrow(/without a path/);
  });

  it('generates functions.json from the JSDoc, every function and parameter described, typed and linked to its help', async () => {
    const json = JSON.parse(readFileSync(join(out, 'excel', 'functions.json'), 'utf8'));
    const fresh = JSON.parse((await generateCustomFunctionsMetadata(join(projectRoot, 'excel-addin/src/functions/functions.ts'))).metadataJson);
    expect(json.functions.map((f: any) => [f.id, f.description])).toEqual(fresh.functions.map((f: any) => [f.id, f.description]));
    const help = readFileSync(join(out, 'excel', 'help.html'), 'utf8');
    for (const f of json.functions) {
      expect(f.helpUrl, f.id).toBe(`${ORIGIN}/excel/help.html#${f.id}`);
      expect(help, f.id).toContain(`<section id="${f.id}"><h2>=TARIFF.${f.id}(`);
      for (const p of f.parameters) expect(['number', 'string', 'boolean', 'any'], `${f.id}(${p.name})`).toContain(p.type);
    }
    expect(json.functions[0].parameters.map((p: any) => `${p.name}:${p.type}`)).toEqual(['hts:any', 'value:number', 'origin:string', 's301:any', 'ocean:boolean', 'qty:number', 'unit:string', 'date:any', 'claim:string']);
    const byId = Object.fromEntries(json.functions.map((f: any) => [f.id, f]));
    expect(Object.keys(byId).sort()).toEqual(['ADDITIONAL', 'DESC', 'DUTY', 'EXPORTERS', 'FEES', 'HMF', 'LANDED', 'MPF', 'RATE', 'RESULT', 'S232', 'SEARCH', 'SECTION301']);
    for (const f of json.functions) {
      expect(f.description, f.id).toMatch(/\w{3}/);
      for (const p of f.parameters) expect(p.description, `${f.id}(${p.name})`).toMatch(/\w{3}/);
    }
    const params = (id: string) => byId[id].parameters.map((p: any) => (p.optional ? `[${p.name}]` : p.name)).join(',');
    // date and claim come last, so formulas written before them keep working.
    for (const id of ['DUTY', 'SECTION301', 'S232', 'ADDITIONAL', 'MPF', 'HMF', 'FEES', 'LANDED']) expect(params(id), id).toBe('hts,value,[origin],[s301],[ocean],[qty],[unit],[date],[claim]');
    expect(params('RESULT')).toBe('hts,value,[origin],[s301],[ocean],[header],[qty],[unit],[date],[claim]');
    expect(params('RATE')).toBe('hts,[origin]');
    expect(params('DESC')).toBe('hts');
    expect(params('EXPORTERS')).toBe('hts,[limit]');
    expect(params('SEARCH')).toBe('words,[n]');
    expect(byId.SEARCH.result.dimensionality).toBe('matrix');
    expect(byId.RESULT.result.dimensionality).toBe('matrix');
    expect(byId.EXPORTERS.result.dimensionality).toBe('matrix');
    expect(byId.DUTY.result.type).toBe('number');
    expect(byId.RATE.result.type).toBe('string');
  });

  it('associates every function id in functions.js, and loads the scripts from the task pane page', () => {
    const js = readFileSync(join(out, 'excel', 'functions.js'), 'utf8');
    const associated = [...js.matchAll(/CustomFunctions\.associate\("([A-Z0-9]+)"/g)].map((x) => x[1]).sort();
    expect(associated).toEqual(['ADDITIONAL', 'DESC', 'DUTY', 'EXPORTERS', 'FEES', 'HMF', 'LANDED', 'MPF', 'RATE', 'RESULT', 'S232', 'SEARCH', 'SECTION301']);
    const html = readFileSync(join(out, 'excel', 'taskpane.html'), 'utf8');
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((x) => x[1]);
    expect(scripts).toEqual(['https://appsforoffice.microsoft.com/lib/1/hosted/office.js', 'functions.js', 'taskpane.js']);
  });

  it('draws the icons at the sizes the manifest declares', () => {
    for (const size of [16, 32, 64, 80]) {
      const png = readFileSync(join(out, 'excel', 'assets', `icon-${size}.png`));
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
  });
});
