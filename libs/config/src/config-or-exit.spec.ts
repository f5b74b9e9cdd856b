import { configOrExit } from './app-config';

describe('configOrExit', () => {
  afterEach(() => jest.restoreAllMocks());

  it('returns the configuration when it is valid', () => {
    expect(configOrExit({ PORT: '8080' }).port).toBe(8080);
  });

  it('writes the message and a newline to stderr and exits with code 1 when it is not', () => {
    const written: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
    // The real exit would end jest; throwing stops configOrExit where the process would have ended.
    const exit = jest.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    expect(() => configOrExit({ PORT: 'eighty' })).toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    expect(written).toEqual(['Invalid configuration:\n  PORT="eighty": PORT must be an integer from 0 to 65535\n']);
  });

  it('reads process.env by default', () => {
    const saved = process.env.PORT;
    process.env.PORT = '8081';
    try {
      expect(configOrExit().port).toBe(8081);
    } finally {
      if (saved === undefined) {
        delete process.env.PORT;
      } else {
        process.env.PORT = saved;
      }
    }
  });
});
