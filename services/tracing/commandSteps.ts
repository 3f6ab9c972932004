/**
 * What a table's owner makes of one command, as spans under the command's
 * own (the gateway's in the embedded service, the worker's on NATS): its
 * wait in the table's queue, the machine's step, and the append to the log.
 */
import { type Attributes, type Context, ROOT_CONTEXT, type Span, type Tracer } from '@opentelemetry/api';
import { EVENT_SEQ, kindOf, noteRefused, SPAN_NAMES } from './commandSpans.js';
import { isTracing, NO_TRACING } from './tracing.js';

const NOTHING_TO_END = () => undefined;

export class CommandSteps {
  private readonly recording: boolean;

  constructor(
    private readonly tracer: Tracer,
    private readonly parent: Context,
    private readonly attributes: Attributes,
  ) {
    this.recording = isTracing(tracer);
  }

  /** Starts timing the command's wait in its table's queue; the returned call says its turn came. */
  waiting(): () => void {
    if (!this.recording) return NOTHING_TO_END;
    const span = this.start(SPAN_NAMES.queue);
    return () => span.end();
  }

  /** The machine's step: the command checked and applied, and what the table is owed after it. */
  step<T>(work: () => T): T {
    if (!this.recording) return work();
    const span = this.start(SPAN_NAMES.step);
    try {
      return work();
    } catch (error) {
      noteRefused(span, kindOf(error));
      throw error;
    } finally {
      span.end();
    }
  }

  /** The append of the command's events, the first of them numbered `firstSeq`; resolves with the table's new version. */
  append(firstSeq: number, work: () => Promise<number>): Promise<number> {
    return this.recording ? this.appendInSpan(firstSeq, work) : work();
  }

  private async appendInSpan(firstSeq: number, work: () => Promise<number>): Promise<number> {
    const span = this.start(SPAN_NAMES.append);
    span.setAttribute(EVENT_SEQ, firstSeq);
    try {
      return await work();
    } catch (error) {
      noteRefused(span, kindOf(error));
      throw error;
    } finally {
      span.end();
    }
  }

  private start(name: string): Span {
    return this.tracer.startSpan(name, { attributes: this.attributes }, this.parent);
  }
}

/** The steps of a command no trace follows (a bot's move, a tool driving a host): no spans at all. */
export const UNTRACED_STEPS = new CommandSteps(NO_TRACING.tracer, ROOT_CONTEXT, {});
