// Summarises a V8 .cpuprofile: self time per function, top N. usage: node bench/profile-summary.js file [N]
const fs = require('fs');
const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
profile.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${f.lineNumber}`;
  self.set(key, (self.get(key) || 0) + (dt[i] || 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
[...self.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(process.argv[3] || 25))
  .forEach(([k, v]) => console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`));
