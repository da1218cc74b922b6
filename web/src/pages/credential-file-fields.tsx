import { ChangeEvent, useState } from 'react';
import type { CredentialField } from '../types';
import { Field } from '../ui';
import { inSentence, labelOf } from './provider-account-values';

/**
 * Credentials loaded from files in the browser: a PEM pasted or read from a .pem/.crt/.key, and a
 * PKCS#12 bundle read into the base64 of its bytes. Nothing read here leaves the browser except in
 * the request that saves the account.
 */

/** The API takes at most 64 KiB a field: base64 makes a bundle a third larger. */
const MAX_PEM_BYTES = 64 * 1024;
const MAX_PKCS12_BYTES = 48 * 1024;

/** A file's contents through FileReader: as text (PEM), or as base64 (a PKCS#12 bundle). */
export function readFile(file: File, as: 'text' | 'base64'): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = typeof reader.result === 'string' ? reader.result : '';
      resolve(as === 'text' ? result : result.slice(result.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The certificate blocks and the private key block of a PEM text (a `.pem` may hold both). */
export function splitPem(text: string): { certificates: string; key: string } {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  return {
    certificates: blocks
      .filter((block) => block[1] === 'CERTIFICATE')
      .map((block) => block[0])
      .join('\n'),
    key: blocks.find((block) => block[1]!.endsWith('PRIVATE KEY'))?.[0] ?? '',
  };
}

/** A PEM text area, filled by pasting or from a file (.pem, .crt, .key) read in the browser. */
export function PemField({
  id,
  field,
  value,
  error,
  onChange,
  onFile,
}: {
  id: string;
  field: CredentialField;
  value: string;
  error?: string;
  onChange: (text: string) => void;
  onFile: (text: string) => void;
}) {
  const [readError, setReadError] = useState<string>();
  const [loaded, setLoaded] = useState<string>();
  const key = field.pem === 'private_key';
  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReadError(undefined);
    setLoaded(undefined);
    if (file.size > MAX_PEM_BYTES) return setReadError(`${file.name} is too large for a PEM file (at most 64 kB).`);
    try {
      onFile(await readFile(file, 'text'));
      setLoaded(file.name);
    } catch {
      setReadError(`${file.name} could not be read.`);
    }
  };
  return (
    <Field label={labelOf(field.label, field.required)} htmlFor={id} error={error ?? readError} hint={field.help}>
      <textarea
        id={id}
        className="pem"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        placeholder={key ? '-----BEGIN PRIVATE KEY-----' : '-----BEGIN CERTIFICATE-----'}
        value={value}
        onChange={(e) => {
          setLoaded(undefined);
          onChange(e.target.value);
        }}
        aria-invalid={!!(error ?? readError)}
      />
      <label className="file-pick">
        <span>Load the {inSentence(field.label)} from a file</span>
        <input type="file" accept={key ? '.pem,.key' : '.pem,.crt,.cer'} onChange={(e) => void load(e)} />
      </label>
      {loaded && <div className="field-hint">Loaded: {loaded}</div>}
    </Field>
  );
}

/** A PKCS#12 bundle (.p12, .pfx), read in the browser into the base64 of its bytes. */
export function BundleField({
  id,
  field,
  file,
  error,
  onLoad,
}: {
  id: string;
  field: CredentialField;
  file?: string;
  error?: string;
  onLoad: (base64: string, file: string) => void;
}) {
  const [readError, setReadError] = useState<string>();
  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setReadError(undefined);
    if (chosen.size > MAX_PKCS12_BYTES) return setReadError(`${chosen.name} is too large for a certificate bundle (at most 48 kB).`);
    try {
      onLoad(await readFile(chosen, 'base64'), chosen.name);
    } catch {
      setReadError(`${chosen.name} could not be read.`);
    }
  };
  const problem = error ?? readError;
  return (
    <Field label={labelOf(field.label, field.required)} htmlFor={id} error={problem} hint={file ? `Loaded: ${file}` : field.help}>
      <input id={id} type="file" accept=".p12,.pfx" onChange={(e) => void load(e)} aria-invalid={!!problem} />
    </Field>
  );
}
