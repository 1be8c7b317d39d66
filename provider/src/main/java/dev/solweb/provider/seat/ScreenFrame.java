package dev.solweb.provider.seat;

/**
 * One picture of a seat's page from its screencast.
 *
 * @param jpeg the image, JPEG
 * @param width the page's viewport width in CSS pixels (input coordinates are in this space)
 * @param height the page's viewport height in CSS pixels
 * @param sequence counts up from 1 per screen, so a reader sees which frames it dropped
 */
public record ScreenFrame(byte[] jpeg, int width, int height, long sequence) {}
