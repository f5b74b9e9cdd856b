import { canonicalId } from './ids';

const DASHED = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a';

describe('canonicalId', () => {
  it.each([
    [DASHED],
    ['0190C7A4-5E4F-7B6A-9C3D-2F1E0D9C8B7A'],
    ['0190c7a45e4f7b6a9c3d2f1e0d9c8b7a'],
    ['0190C7A45E4F7B6A9C3D2F1E0D9C8B7A'],
    ['0190c7A45e4F7b6a9C3d2f1E0d9c8B7a'],
  ])('gives %p as the lower-case dashed form', (value) => {
    expect(canonicalId(value)).toBe(DASHED);
  });

  it('keeps the nil and the max UUID, which are UUIDs too', () => {
    expect(canonicalId('0'.repeat(32))).toBe('00000000-0000-0000-0000-000000000000');
    expect(canonicalId('F'.repeat(32))).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
  });

  it.each([
    [''],
    ['abc'],
    [DASHED.slice(1)],
    [`${DASHED}0`],
    ['0190c7a45e4f7b6a9c3d2f1e0d9c8b7'],
    ['0190c7a45e4f7b6a9c3d2f1e0d9c8b7a0'],
    ['0190c7a4-5e4f7b6a-9c3d-2f1e0d9c8b7a'],
    ['0190c7a4-5e4f-7b6a-9c3d2f1e0d9c8b7a'],
    ['0190c7a4_5e4f_7b6a_9c3d_2f1e0d9c8b7a'],
    ['{0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a}'],
    ['urn:uuid:0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a'],
    [` ${DASHED}`],
    [`${DASHED}\n`],
    ['0190c7a45e4f7b6a9c3d2f1e0d9c8b7g'],
    ['０１９０c7a45e4f7b6a9c3d2f1e0d9c8b7a'.slice(0, 32)],
  ])('refuses %p', (value) => {
    expect(canonicalId(value)).toBeUndefined();
  });
});
