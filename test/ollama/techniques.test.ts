// shared/techniques.ts is the one place that says which techniques exist, which need one model or
// two, and what a missing model is called; the registry, the pipeline's settings and the API agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkModels,
  isModelTechnique,
  modelsUsed,
  MODEL_TECHNIQUE_NAMES,
  readsWithTwoModels,
  TECHNIQUE_INFO,
  TECHNIQUE_NAMES,
  TECHNIQUE_ORDER,
} from '../../shared/techniques.ts';
import { TechniqueNameSchema } from '../../shared/api.ts';
import { makeSettings } from '../../electron/engine/read/ollama/settings.ts';
import { resolveTechnique } from '../../electron/engine/read/registry.ts';

test('every technique has its info, is offered once, and the API accepts exactly these names', () => {
  assert.deepEqual([...TECHNIQUE_ORDER].sort(), [...TECHNIQUE_NAMES].sort());
  for (const t of TECHNIQUE_NAMES) {
    const info = TECHNIQUE_INFO[t];
    assert.ok(info.label && info.note, t);
    assert.ok(info.minModels <= info.maxModels, t);
    assert.equal(isModelTechnique(t), info.minModels > 0, t);
    assert.ok(TechniqueNameSchema.safeParse(t).success, t);
  }
  assert.deepEqual([...MODEL_TECHNIQUE_NAMES].sort(), TECHNIQUE_NAMES.filter((t) => TECHNIQUE_INFO[t].minModels > 0).sort());
  assert.equal(TechniqueNameSchema.safeParse('psychic').success, false);
});

test('checkModels: the problem in words, or null', () => {
  assert.equal(checkModels('embedded', null, null), null);
  assert.equal(checkModels('embedded', 'm1', 'm2'), null, 'a model a technique does not use is ignored');
  assert.equal(checkModels('plain'), null);
  for (const t of ['direct', 'llm-modulo', 'per-line', 'hybrid']) {
    assert.equal(checkModels(t, 'm1'), null, t);
    assert.equal(checkModels(t, '  '), `technique '${t}' needs a model`, t);
    assert.equal(checkModels(t, null, 'm2'), `technique '${t}' needs a model`, t);
  }
  assert.equal(checkModels('consensus', 'm1', 'm2'), null);
  assert.equal(checkModels('consensus', 'm1'), "technique 'consensus' needs a second model");
  assert.equal(checkModels('consensus'), "technique 'consensus' needs a model");
  assert.match(checkModels('psychic', 'm1')!, /unknown technique 'psychic' \(available: embedded, plain, direct, llm-modulo, consensus, per-line, hybrid\)/);
});

test('modelsUsed: what each technique reads with', () => {
  assert.deepEqual(modelsUsed('embedded', 'a', 'b'), []);
  assert.deepEqual(modelsUsed('direct', 'a', 'b'), ['a']);
  assert.deepEqual(modelsUsed('consensus', 'a', 'b'), ['a', 'b']);
  assert.deepEqual(modelsUsed('hybrid', 'a'), ['a']);
  assert.deepEqual(modelsUsed('hybrid', 'a', 'b'), ['a', 'b']);
  assert.equal(readsWithTwoModels('hybrid', 'a', 'b'), true);
  assert.equal(readsWithTwoModels('llm-modulo', 'a', 'b'), false);
});

test('the pipeline settings and the registry use the same rule and words', async () => {
  assert.throws(() => makeSettings({ model: 'x', technique: 'consensus' }, {}), /^Error: technique 'consensus' needs a second model$/);
  await assert.rejects(resolveTechnique('consensus', { model: 'x' }), /technique 'consensus' needs a second model/);
  await assert.rejects(resolveTechnique('hybrid', {}), /technique 'hybrid' needs a model/);
  await assert.rejects(resolveTechnique('psychic', {}), /unknown technique 'psychic'/);
  assert.equal((await resolveTechnique('embedded', { model: 'ignored' })).usesModel, false);
  const t = await resolveTechnique('consensus', { model: 'a', model2: 'b', url: 'http://127.0.0.1:9' });
  assert.equal(t.extractor.name, 'consensus:a+b');
  const h = await resolveTechnique('direct', { model: 'a', model2: 'b', url: 'http://127.0.0.1:9' });
  assert.equal(h.extractor.name, 'direct:a', 'direct reads with one model only');
});
