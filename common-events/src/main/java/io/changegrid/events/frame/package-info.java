/**
 * The binary event frame: its layout ({@link io.changegrid.events.frame.FrameLayout}), the encoder
 * that writes whole transactions of frames, and flyweights that read frames in place. Frames are
 * serialized once, in the relay, and shipped as bytes from there on.
 */
package io.changegrid.events.frame;
