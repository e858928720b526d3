package org.eafr.namenode.cluster;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.hdfs.server.namenode.NameNode;

/**
 * The files open for writing, a page of the NameNode's open-file listing ({@code listOpenFiles}, as {@code hdfs
 * dfsadmin -listOpenFiles} reads it) at a time: the cost grows with the files being written, not the namespace.
 */
public final class OpenFiles {
  private OpenFiles() {
  }

  /** The first answer {@code visitor} gives for an open file, in the listing's order; empty when none gives one. */
  public static <T> Optional<T> first(NameNode nameNode, Function<OpenFileEntry, Optional<T>> visitor)
      throws IOException {
    long after = 0;
    BatchedEntries<OpenFileEntry> page;
    do {
      page = nameNode.getRpcServer().listOpenFiles(after, EnumSet.of(OpenFilesType.ALL_OPEN_FILES),
          OpenFilesIterator.FILTER_PATH_DEFAULT);
      for (int i = 0; i < page.size(); i++) {
        OpenFileEntry file = page.get(i);
        after = file.getId();
        Optional<T> answer = visitor.apply(file);
        if (answer.isPresent()) {
          return answer;
        }
      }
    } while (page.hasMore());
    return Optional.empty();
  }
}
