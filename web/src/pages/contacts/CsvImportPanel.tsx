import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useId, useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import type { Contact } from '../../../../schema/api/contacts';
import {
  checkCsvFile,
  columnFieldLabels,
  columnFields,
  columnHeadings,
  csvMessages,
  guessMapping,
  importStatus,
  planContactImport,
  preflightContactsCsv,
  previewRows,
  readContactsCsv,
  skippedRowsCsv,
  type ColumnField,
  type SkippedRow,
} from '../../../../schema/csv/contactImport';
import { decodeCsvBytes, type CsvTable } from '../../../../schema/csv/parse';
import { errorMessage } from '../../api/client';
import { importContacts } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import styles from './contacts.module.css';

interface Mapping {
  table: CsvTable;
  fileName: string;
  hasHeader: boolean;
  removeDuplicates: boolean;
  mapping: ColumnField[];
}

/** The rows an import left out, kept on screen after it until the panel is closed. */
interface Skipped {
  table: CsvTable;
  fileName: string;
  hasHeader: boolean;
  rows: SkippedRow[];
}

type Step =
  | { step: 'choose' }
  | { step: 'reading' }
  | { step: 'fileError'; title: string; message: string }
  | ({ step: 'map' } & Mapping)
  | ({ step: 'skipped' } & Skipped);

const fieldOptions: SelectProps.Option[] = columnFields.map((field) => ({ value: field, label: columnFieldLabels[field] }));

interface PreviewRow {
  index: number;
  cells: string[];
}

/**
 * Spec §2/§5 CSV import: choose a file (type and size checked), read it (UTF-8, or Windows-1252 as
 * Excel saves CSV on Windows) and parse it, refuse a file with no data row or more than 5000, map its
 * columns (guessed from the header), preview 5 rows, list the rows that will be skipped and why ('Import
 * Issues'), then send the good rows in batches of 100 with a progress bar. Rows skipped here or turned
 * down by the server stay listed after the import, with a download, until the panel is closed. Each batch's created contacts go to
 * `onImported` as soon as it is answered. A batch that fails may have written some of its rows before
 * its error, which its answer cannot say, so after a failure `onFailed` has the list read again from
 * the server. Running the same file again adds only what is missing (the server skips addresses the
 * user already has).
 */
export default function CsvImportPanel({
  onImported,
  onFailed,
  onClose,
  onBusyChange,
}: {
  onImported: (created: readonly Contact[]) => void;
  onFailed: () => void;
  onClose: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const fileInputId = useId();
  const [state, setState] = useState<Step>({ step: 'choose' });
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const importing = progress !== null;

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again (after Try Again) is a change too.
    input.value = '';
    if (!file) return;
    const problem = checkCsvFile(file);
    if (problem) {
      notify({ type: 'error', title: problem.title, message: problem.message });
      return;
    }
    setState({ step: 'reading' });
    let text: string;
    try {
      text = decodeCsvBytes(await file.arrayBuffer());
    } catch {
      setState({ step: 'choose' });
      notify({ type: 'error', title: csvMessages.readFailed });
      return;
    }
    const read = readContactsCsv(text);
    if (!read.ok) {
      setState({ step: 'fileError', title: csvMessages.parseErrorTitle, message: read.error });
      return;
    }
    const refused = preflightContactsCsv(read.table);
    if (refused !== null) {
      setState({ step: 'fileError', title: csvMessages.issuesTitle, message: refused });
      return;
    }
    setState({
      step: 'map',
      table: read.table,
      fileName: file.name,
      hasHeader: true,
      removeDuplicates: true,
      mapping: guessMapping(read.table, true),
    });
  }

  async function runImport(current: Mapping) {
    if (importing) return;
    const planned = planContactImport(current.table, current);
    // The button is disabled in these cases; kept so a stale click cannot send nothing.
    if (!planned.ok || planned.plan.contacts.length === 0) return;
    const { contacts, sources, skipped, inFileDuplicates } = planned.plan;
    setProgress({ done: 0, total: contacts.length });
    onBusyChange(true);
    const outcome = await importContacts(api, contacts, {
      onBatch: (result, done, total) => {
        onImported(result.created);
        setProgress({ done, total });
      },
    });
    setProgress(null);
    onBusyChange(false);
    if (outcome.error !== undefined) {
      onFailed();
      notify({
        type: 'error',
        title: csvMessages.importFailed,
        // The failed batch's answer is lost, and it may have written rows before failing: hence 'at least'.
        message: `At least ${outcome.created} contacts were imported before it stopped (${errorMessage(outcome.error)}). Import the same file again to add the rest.`,
        durationMs: 0,
      });
      return;
    }
    const turnedDown = outcome.rejected.flatMap(({ index, reason }) => {
      const source = sources[index];
      return source ? [{ ...source, reason: csvMessages.rowIssue(source.rowNumber, [reason]) }] : [];
    });
    const notImported = [...skipped, ...turnedDown].sort((a, b) => a.rowNumber - b.rowNumber);
    if (outcome.created === 0) {
      notify({ type: 'info', title: csvMessages.noNew, message: csvMessages.noNewDetail });
    } else {
      // Repeated rows of the file are always left out of the plan; with 'Remove duplicate emails' off they are reported.
      const duplicates = outcome.skipped + (current.removeDuplicates ? 0 : inFileDuplicates);
      notify({ type: 'success', title: csvMessages.success(outcome.created, duplicates) });
    }
    if (notImported.length > 0) {
      setState({ step: 'skipped', table: current.table, fileName: current.fileName, hasHeader: current.hasHeader, rows: notImported });
      return;
    }
    setState({ step: 'choose' });
    onClose();
  }

  if (state.step === 'fileError') {
    return (
      <Alert type="error" header={state.title} action={<Button onClick={() => setState({ step: 'choose' })}>Try Again</Button>}>
        {state.message}
      </Alert>
    );
  }

  if (state.step === 'skipped') {
    return (
      <SkippedRowsAlert
        skipped={state}
        summary={csvMessages.notImported(state.rows.length)}
        action={
          <Button
            onClick={() => {
              setState({ step: 'choose' });
              onClose();
            }}
          >
            Done
          </Button>
        }
      />
    );
  }

  if (state.step === 'map') {
    return (
      <MappingPanel
        mapping={state}
        progress={progress}
        onChange={(next) => setState({ step: 'map', ...next })}
        onCancel={() => setState({ step: 'choose' })}
        onImport={() => void runImport(state)}
      />
    );
  }

  return (
    <Container
      header={
        <Header variant="h2" description="Upload a CSV file with one contact per row. Only an email column is required.">
          Import CSV
        </Header>
      }
    >
      <FormField label={csvMessages.fileLabel} controlId={fileInputId}>
        <input
          id={fileInputId}
          className={styles.fileInput}
          type="file"
          accept=".csv,text/csv"
          disabled={state.step === 'reading'}
          onChange={(event) => void chooseFile(event)}
        />
      </FormField>
      {state.step === 'reading' && (
        <Box margin={{ top: 's' }}>
          <StatusIndicator type="loading">Reading file…</StatusIndicator>
        </Box>
      )}
    </Container>
  );
}

function MappingPanel({
  mapping,
  progress,
  onChange,
  onCancel,
  onImport,
}: {
  mapping: Mapping;
  progress: { done: number; total: number } | null;
  onChange: (mapping: Mapping) => void;
  onCancel: () => void;
  onImport: () => void;
}) {
  const { table, hasHeader, removeDuplicates } = mapping;
  const importing = progress !== null;
  const headings = useMemo(() => columnHeadings(table, hasHeader), [table, hasHeader]);
  const rows = useMemo<PreviewRow[]>(() => previewRows(table, hasHeader).map((cells, index) => ({ index, cells })), [table, hasHeader]);
  const planned = useMemo(
    () => planContactImport(table, { hasHeader, removeDuplicates, mapping: mapping.mapping }),
    [table, hasHeader, removeDuplicates, mapping.mapping],
  );
  const status = importStatus(planned);
  const skipped = planned.ok ? planned.plan.skipped : [];

  const columns = useMemo<TableProps.ColumnDefinition<PreviewRow>[]>(
    () =>
      headings.map((heading, column) => ({
        id: String(column),
        header: heading,
        cell: (row) => row.cells[column] ?? '',
        minWidth: 120,
      })),
    [headings],
  );

  const setField = (column: number, field: ColumnField) =>
    onChange({ ...mapping, mapping: mapping.mapping.map((current, i) => (i === column ? field : current)) });

  return (
    <Container
      header={
        <Header variant="h2" description={`${mapping.fileName}: choose what each column holds.`}>
          Map CSV Columns
        </Header>
      }
      footer={
        <SpaceBetween size="m">
          {progress && (
            <ProgressBar
              label={csvMessages.progress(progress.done, progress.total)}
              value={progress.total === 0 ? 0 : Math.round((progress.done / progress.total) * 100)}
            />
          )}
          <div className={styles.mappingFooter}>
            <StatusIndicator type={status.type}>{status.message}</StatusIndicator>
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="link" onClick={onCancel} disabled={importing}>
                Cancel
              </Button>
              <Button variant="primary" onClick={onImport} disabled={!status.canImport || importing}>
                {importing ? 'Importing...' : 'Import Contacts'}
              </Button>
            </SpaceBetween>
          </div>
        </SpaceBetween>
      }
    >
      <SpaceBetween size="l">
        <SpaceBetween size="xs">
          <Checkbox
            checked={hasHeader}
            disabled={importing}
            onChange={({ detail }) => onChange({ ...mapping, hasHeader: detail.checked, mapping: guessMapping(table, detail.checked) })}
          >
            First row contains headers
          </Checkbox>
          <Checkbox checked={removeDuplicates} disabled={importing} onChange={({ detail }) => onChange({ ...mapping, removeDuplicates: detail.checked })}>
            Remove duplicate emails
          </Checkbox>
        </SpaceBetween>
        <div className={styles.mappingGrid}>
          {headings.map((heading, column) => {
            const field = mapping.mapping[column] ?? 'skip';
            return (
              <FormField key={column} label={heading}>
                <Select
                  selectedOption={fieldOptions.find((option) => option.value === field) ?? null}
                  options={fieldOptions}
                  disabled={importing}
                  onChange={({ detail }) => setField(column, (detail.selectedOption.value as ColumnField | undefined) ?? 'skip')}
                />
              </FormField>
            );
          })}
        </div>
        {skipped.length > 0 && <SkippedRowsAlert skipped={{ ...mapping, rows: skipped }} summary={`${status.message}:`} />}
        <Table
          variant="embedded"
          header={
            <Header variant="h3" counter={`(${rows.length})`}>
              Preview
            </Header>
          }
          columnDefinitions={columns}
          items={rows}
          trackBy={(row) => String(row.index)}
          ariaLabels={{ tableLabel: 'CSV preview' }}
          empty={<Box textAlign="center">{csvMessages.noRows}</Box>}
        />
      </SpaceBetween>
    </Container>
  );
}

/** How many skipped rows are listed on screen; the download has them all. */
const rowsListed = 10;

/**
 * 'Import Issues': the rows left out and why (the first 10 listed), and a download of them all as CSV
 * (the file's columns plus a reason) to fix and import again.
 */
function SkippedRowsAlert({ skipped, summary, action }: { skipped: Skipped; summary: string; action?: ReactNode }) {
  const { rows, table, hasHeader, fileName } = skipped;
  const href = useMemo(() => `data:text/csv;charset=utf-8,${encodeURIComponent(skippedRowsCsv(table, hasHeader, rows))}`, [table, hasHeader, rows]);
  return (
    <Alert type="warning" header={csvMessages.issuesTitle} action={action}>
      <SpaceBetween size="xs">
        <Box variant="p">{summary}</Box>
        <ul aria-label="Skipped rows" className={styles.skippedRows}>
          {rows.slice(0, rowsListed).map((row) => (
            <li key={row.rowNumber}>{row.reason}</li>
          ))}
        </ul>
        {rows.length > rowsListed && <Box variant="small">{`…and ${rows.length - rowsListed} more in the download.`}</Box>}
        <Button href={href} download={csvMessages.skippedFileName(fileName)} iconName="download">
          {csvMessages.downloadSkipped}
        </Button>
      </SpaceBetween>
    </Alert>
  );
}
